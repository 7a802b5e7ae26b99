import { ERRORS } from "@/lib/x3d/errors";
import { fieldOrder, type EndpointSpec, type Field, type Fields } from "@/lib/x3d/endpoints/field";
import { ENDPOINT_SPECS, endpointCodes } from "@/lib/x3d/endpoints/openapi";

const code = "rounded bg-muted px-1 py-0.5 font-mono text-[0.85em] break-words";

function valuesText(field: Field): string {
  switch (field.type) {
    case "choice":
      return field.values.map((v) => (field.labels?.[v] && field.labels[v] !== v ? `${v} (${field.labels[v]})` : v)).join(", ");
    case "int-choice":
      return Object.entries(field.values)
        .map(([k, label]) => `${k} ${label}`)
        .join(", ");
    case "int":
      return `whole number, ${field.min} to ${field.max}`;
    case "decimal":
      return `${field.min} to ${field.max}${field.step === undefined ? "" : `, steps of ${field.step}`}`;
  }
}

function Endpoint({ spec }: { spec: EndpointSpec<Fields> }) {
  const id = spec.path.slice(1).replace(/\//g, "-");
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-xl font-semibold break-all">
        <span className="text-success">POST</span> <span className="font-mono">/open-api/v1{spec.path}</span>
      </h2>
      <p className="text-foreground/85">
        {spec.summary} <code className={code}>multipart/form-data</code>,{" "}
        <code className={code}>Authorization: {spec.scheme} &lt;token&gt;</code>
        {spec.scheme === "Token" ? " (Bearer also accepted)" : ""}. Poll{" "}
        <code className={code}>GET /open-api/v1{spec.query.path}?task_id=…</code> ({spec.query.scheme}).
      </p>
      {/* Scrolls sideways inside itself on a phone; focusable so the keyboard can scroll it too. */}
      <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label={`Fields of ${spec.path}`}>
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Fields of {spec.path}</caption>
          <thead className="text-muted-foreground">
            <tr>
              <th scope="col" className="py-1 pr-4">
                Field
              </th>
              <th scope="col" className="py-1 pr-4">
                Values
              </th>
              <th scope="col" className="py-1 pr-4">
                Default
              </th>
              <th scope="col" className="py-1 pr-4">
                Notes
              </th>
              <th scope="col" className="py-1">
                Code
              </th>
            </tr>
          </thead>
          <tbody>
            {spec.table.map((name) => {
              const field = spec.fields[name];
              const input = spec.inputs[name];
              const rule = spec.rules[name];
              return (
                <tr key={name} className="border-t border-border align-top">
                  <th scope="row" className="py-1 pr-4 font-mono font-normal">
                    {name}
                  </th>
                  <td className="py-1 pr-4">{field ? valuesText(field) : input?.kind === "url" ? "http(s) URL" : input?.kind}</td>
                  <td className="py-1 pr-4 font-mono">{field?.default ?? (rule?.default ? "by rule" : field ? "required" : "")}</td>
                  <td className="py-1 pr-4 text-foreground/85">{[field?.doc ?? input?.doc, rule?.doc].filter(Boolean).join(" ")}</td>
                  <td className="py-1 font-mono">{field ? field.code : input?.codes.join(", ")}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="text-sm text-muted-foreground">
        Checked in this order, the first problem answers:{" "}
        {spec.order.map((step) => (typeof step === "string" ? step : "input" in step ? step.input : step.check)).join(" → ")}. Fields:{" "}
        {fieldOrder(spec).length}; error codes: {endpointCodes(spec).join(", ")}.
      </p>
    </section>
  );
}

/** The API reference, from the same specs that validate requests; no external requests. */
export function ApiReference() {
  return (
    <article className="space-y-10">
      <header className="space-y-3">
        <h1 className="text-2xl font-semibold">x3d Open API reference</h1>
        <p className="text-foreground/85">
          The embedded service speaks the 3D generation Open API under <code className={code}>/open-api/v1</code>. Trade client credentials
          for a token with <code className={code}>POST /open-api/v1/auth/token</code> (HTTP Basic, valid 24 hours), create a task, then poll
          its query endpoint or give a <code className={code}>callback_url</code>. Every answer is{" "}
          <code className={code}>{"{code, msg, data}"}</code>: code 200 is success, any other code is an error from the table below. The
          machine-readable document is <a href="/open-api/v1/openapi.json">openapi.json</a> (OpenAPI 3.1).
        </p>
      </header>
      {ENDPOINT_SPECS.map((spec) => (
        <Endpoint key={spec.path} spec={spec} />
      ))}
      <section aria-labelledby="errors" className="space-y-3">
        <h2 id="errors" className="text-xl font-semibold">
          Error codes
        </h2>
        <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label="Error codes">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Error codes</caption>
            <thead className="text-muted-foreground">
              <tr>
                <th scope="col" className="py-1 pr-4">
                  Code
                </th>
                <th scope="col" className="py-1 pr-4">
                  msg
                </th>
                <th scope="col" className="py-1">
                  Meaning
                </th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(ERRORS).map(([c, e]) => (
                <tr key={c} className="border-t border-border">
                  <th scope="row" className="py-1 pr-4 font-mono font-normal">
                    {c}
                  </th>
                  <td className="py-1 pr-4 font-mono">{e.msg}</td>
                  <td className="py-1 text-foreground/85">{e.user}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </article>
  );
}
