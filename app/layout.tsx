import type { Metadata, Viewport } from "next";
import { cookies } from "next/headers";
import { parseTheme, THEME_COOKIE, themeClass } from "@/components/ui/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: "x3d studio",
  description: "Turn images into 3D assets.",
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f9f9fb" },
    { media: "(prefers-color-scheme: dark)", color: "#131318" },
  ],
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // The artist's theme choice (components/ui/theme-switch.tsx) is rendered with the page: no flash of the other theme.
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" className={themeClass(theme)} data-theme={theme}>
      <body className="min-h-screen bg-background text-foreground antialiased">{children}</body>
    </html>
  );
}
