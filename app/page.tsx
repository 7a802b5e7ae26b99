const ENDPOINTS = [
  ["POST", "auth/token", "Basic client credentials → 24 h access token"],
  ["POST", "submit-task", "image-to-3D: one image or up to four views"],
  ["GET", "query-task", "image-to-3D state and result links"],
  ["GET", "balance", "credit balance"],
  ["POST", "split/create-task", "split a mesh into printable parts"],
  ["GET", "split/query-task", "split state and result links"],
  ["POST", "depth/create-task", "depth map or relief from an image"],
  ["GET", "depth/query-task", "depth state and result links"],
  ["POST", "segmentation/create-task", "segment a mesh into regions"],
  ["GET", "segmentation/query-task", "segmentation state and result links"],
] as const;

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">x3d studio</h1>
      <p className="mt-3 text-neutral-400">
        Images in, 3D assets out. This server also runs the embedded x3d service: any client written for the live
        Open API can be pointed at it.
      </p>
      <h2 className="mt-10 text-lg font-medium">Embedded service · /open-api/v1</h2>
      <table className="mt-4 w-full text-sm">
        <tbody>
          {ENDPOINTS.map(([method, path, what]) => (
            <tr key={path} className="border-t border-neutral-800">
              <td className="py-2 pr-4 font-mono text-neutral-400">{method}</td>
              <td className="py-2 pr-4 font-mono">/open-api/v1/{path}</td>
              <td className="py-2 text-neutral-400">{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
