"use client";

import { useActionState, useId } from "react";
import { MAX_ALLOWANCE, type AdminActionState } from "@/lib/admin/limits";
import { LocalTime } from "@/components/tasks/local-time";

export interface UserRowView {
  id: string;
  email: string;
  name: string | null;
  role: "admin" | "artist";
  allowance: number;
  spent: number;
  remaining: number;
  tasks: number;
  lastActive: string | null;
  createdAt: string;
  disabled: boolean;
}

const idle: AdminActionState = { status: "idle" };

type AdminAction = (state: AdminActionState, form: FormData) => Promise<AdminActionState>;

/** The admin page's server actions (app/admin/actions.ts). */
export interface AdminActions {
  setAllowance: AdminAction;
  setDisabled: AdminAction;
}

function Notice({ state }: { state: AdminActionState }) {
  if (state.status === "idle") return null;
  return <span className={state.status === "error" ? "text-destructive" : "text-success"}>{state.message}</span>;
}

function UserRow({ row, actions }: { row: UserRowView; actions: AdminActions }) {
  const [allowanceState, saveAllowance, savingAllowance] = useActionState(actions.setAllowance, idle);
  const [disabledState, toggleDisabled, toggling] = useActionState(actions.setDisabled, idle);
  const inputId = useId();
  const admin = row.role === "admin";
  return (
    <tr data-testid="admin-user" data-email={row.email} className="border-t border-border align-top">
      <th scope="row" className="py-2 pr-4 text-left font-normal">
        <div>{row.email}</div>
        {row.name && <div className="text-muted-foreground">{row.name}</div>}
      </th>
      <td className="py-2 pr-4">{admin ? "Admin" : "Artist"}</td>
      <td className="py-2 pr-4">
        {admin ? (
          <span className="text-muted-foreground">not limited</span>
        ) : (
          <form action={saveAllowance} noValidate className="flex items-center gap-2" aria-busy={savingAllowance}>
            <input type="hidden" name="userId" value={row.id} />
            {/* Shut while saving: the form reset on the answer would wipe a value typed meanwhile. */}
            <fieldset disabled={savingAllowance} className="contents">
              <label htmlFor={inputId} className="sr-only">
                Allowance of {row.email}
              </label>
              <input
                id={inputId}
                name="allowance"
                type="number"
                min={0}
                max={MAX_ALLOWANCE}
                step={1}
                defaultValue={row.allowance}
                className="w-28 rounded border border-border bg-card px-2 py-1"
                data-testid="allowance-input"
              />
              <button className="rounded border border-input px-2 py-1 hover:bg-accent">Save</button>
            </fieldset>
          </form>
        )}
      </td>
      <td className="py-2 pr-4" data-testid="spent">
        {row.spent}
      </td>
      <td className="py-2 pr-4" data-testid="remaining">
        {admin ? "—" : row.remaining}
      </td>
      <td className="py-2 pr-4" data-testid="task-count">
        {row.tasks}
      </td>
      <td className="py-2 pr-4">
        {row.lastActive ? <LocalTime iso={row.lastActive} /> : <span className="text-muted-foreground">never</span>}
      </td>
      <td className="py-2 pr-4">
        {admin ? (
          <span className="text-muted-foreground">active</span>
        ) : (
          <form action={toggleDisabled} className="flex items-center gap-2">
            <input type="hidden" name="userId" value={row.id} />
            <input type="hidden" name="disable" value={row.disabled ? "0" : "1"} />
            <span data-testid="account-status">{row.disabled ? "disabled" : "active"}</span>
            <button disabled={toggling} className="rounded border border-input px-2 py-1 hover:bg-accent">
              {row.disabled ? "Enable" : "Disable"}
            </button>
          </form>
        )}
        <p aria-live="polite" data-testid="admin-notice" className="mt-1 max-w-56 text-xs whitespace-normal">
          <Notice state={allowanceState.status !== "idle" ? allowanceState : disabledState} />
        </p>
      </td>
    </tr>
  );
}

const COLUMNS = ["Account", "Role", "Allowance", "Spent", "Left", "Tasks", "Last active", "Status"];

/** Accounts with their allowance (editable for artists), credits spent and left, tasks and last activity. */
export function UserTable({ rows, actions }: { rows: UserRowView[]; actions: AdminActions }) {
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-sm whitespace-nowrap" data-testid="admin-users">
        <thead className="text-left text-muted-foreground">
          <tr>
            {COLUMNS.map((label) => (
              <th key={label} scope="col" className="pr-4 font-medium">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <UserRow key={row.id} row={row} actions={actions} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
