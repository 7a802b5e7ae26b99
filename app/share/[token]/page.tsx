import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SharedResult } from "@/components/tasks/shared-result";
import { sharedTaskView } from "@/lib/tasks/model/task-view";
import { findSharedTask } from "@/lib/tasks/read/shared-task";
import { taskInputs } from "@/lib/tasks/read/shown-inputs";

// The token is the only key to this page: keep it out of search engines and Referer headers.
export const metadata: Metadata = { title: "Shared result · x3d studio", robots: { index: false, follow: false }, referrer: "no-referrer" };

/** A read-only result for anyone holding the link; nothing about its owner. */
export default async function SharePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const task = await findSharedTask(token);
  if (!task) notFound();
  const inputs = await taskInputs(task, { share: token });
  return (
    <main>
      <SharedResult view={sharedTaskView(task, token)} inputs={inputs} />
    </main>
  );
}
