import { Box } from "lucide-react";

/** Signing in and up: one card, the studio's mark above it, on a quiet backdrop. */
export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-[radial-gradient(ellipse_at_top,var(--accent),transparent_60%)] px-4 py-10">
      <div className="mb-6 flex flex-col items-center gap-3 text-center">
        <span className="flex size-12 items-center justify-center rounded-xl bg-primary text-primary-foreground shadow-lg">
          <Box className="size-6" aria-hidden />
        </span>
        <p className="text-display font-semibold tracking-tight">x3d studio</p>
        <p className="text-body text-muted-foreground">Turn images into 3D assets: models, textures, printable parts and reliefs.</p>
      </div>
      <div className="w-full max-w-sm rounded-xl border bg-card p-6 shadow-sm sm:p-8">{children}</div>
    </main>
  );
}
