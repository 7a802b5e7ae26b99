import { Container } from "@/components/ui/container";
import Link from "next/link";

const KINDS = [
  ["/new/image", "Image to 3D", "One photo, or front, back, left and right views, to a textured model."],
  ["/new/texture", "Texture a model", "Paint an existing GLB from an image."],
  ["/new/split", "Split for printing", "Cut a character or object into parts with joints."],
  ["/new/depth", "Depth & relief", "A depth map or a printable relief from an image."],
  ["/new/segmentation", "Segmentation", "Label a model's parts."],
] as const;

export default function Home() {
  return (
    <Container>
      <h1 className="text-2xl font-semibold tracking-tight">Start something</h1>
      <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {KINDS.map(([href, title, text]) => (
          <Link key={href} href={href} className="rounded-lg border border-border p-5 hover:border-primary">
            <h2 className="font-medium">{title}</h2>
            <p className="mt-1 text-sm text-muted-foreground">{text}</p>
          </Link>
        ))}
      </div>
      <p className="mt-8 text-sm text-muted-foreground">
        Your results are in{" "}
        <Link href="/tasks" className="text-primary underline">
          My tasks
        </Link>
        .
      </p>
    </Container>
  );
}
