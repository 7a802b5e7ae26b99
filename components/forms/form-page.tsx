import { Notice } from "./fields";

/** The frame of a create page: title, one line on what it does, and the page's notice. */
export function FormPage({
  title,
  intro,
  notice,
  children,
}: {
  title: string;
  intro: string;
  notice?: string | undefined;
  children: React.ReactNode;
}) {
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-6 sm:px-6 sm:py-8">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="mt-1 text-sm text-muted-foreground">{intro}</p>
      </header>
      <Notice message={notice} />
      {children}
    </div>
  );
}
