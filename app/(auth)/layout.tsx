export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6">
      <p className="mb-8 text-center text-2xl font-semibold tracking-tight">x3d studio</p>
      {children}
    </main>
  );
}
