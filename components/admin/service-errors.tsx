import { LocalTime } from "@/components/tasks/local-time";

export interface ServiceErrorView {
  id: number;
  at: string;
  operation: string;
  code: number | null;
  message: string;
  taskId: string | null;
}

/** The newest errors the x3d service gave the studio. */
export function ServiceErrorList({ errors }: { errors: ServiceErrorView[] }) {
  if (errors.length === 0) return <p className="text-muted-foreground">None recorded.</p>;
  return (
    <ul className="space-y-1 text-sm" data-testid="service-errors">
      {errors.map((e) => (
        <li key={e.id} className="flex flex-wrap gap-x-3">
          <LocalTime iso={e.at} />
          <span>{e.operation}</span>
          {e.code !== null && <span>code {e.code}</span>}
          <span className="text-foreground/85">{e.message}</span>
          {e.taskId && <span className="text-muted-foreground">task {e.taskId}</span>}
        </li>
      ))}
    </ul>
  );
}
