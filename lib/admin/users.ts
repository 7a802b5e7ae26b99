import "server-only";
import { sql } from "drizzle-orm";
import { roleOf, type Role } from "@/lib/accounts/roles";
import { db } from "@/lib/db";
import { creditLedger, users } from "@/lib/db/schema";
import { serverEnv } from "@/lib/env";

export interface AdminUserRow {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  allowance: number;
  spent: number;
  remaining: number;
  tasks: number;
  /** The later of the last request with a session and the last task made; null: never. */
  lastActive: Date | null;
  createdAt: Date;
  disabled: boolean;
}

const toDate = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

/**
 * Every account with its credits (from the ledger), its task count and when it was last
 * active, oldest account first. Accounts from before per-user credits get their opening
 * allowance here, so every row's figures are the ledger's.
 */
export async function adminUserRows(): Promise<AdminUserRow[]> {
  const database = await db();
  await database.execute(sql`
    insert into ${creditLedger} (user_id, kind, amount, note)
    select id, 'grant', ${serverEnv().X3D_DEFAULT_ALLOWANCE}, 'opening allowance' from ${users}
    on conflict do nothing`);
  const result = (await database.execute(sql`
    select u.id, u.email, u.name, u.created_at, u.disabled_at,
      coalesce(l.allowance, 0)::int as allowance, coalesce(l.total, 0)::int as total,
      coalesce(t.tasks, 0)::int as tasks, greatest(u.last_seen_at, t.last_task) as last_active
    from users u
    left join (
      select user_id, sum(amount) filter (where kind = 'grant') as allowance, sum(amount) as total
      from credit_ledger group by user_id
    ) l on l.user_id = u.id
    left join (select user_id, count(*) as tasks, max(created_at) as last_task from studio_tasks group by user_id) t on t.user_id = u.id
    order by u.created_at, u.id`)) as unknown as { rows: Record<string, unknown>[] };
  const rows = result.rows;
  return Promise.all(
    rows.map(async (r) => {
      const allowance = Number(r.allowance);
      const remaining = Number(r.total);
      const id = String(r.id);
      const email = String(r.email);
      return {
        id,
        email,
        name: r.name === null ? null : String(r.name),
        role: await roleOf({ id, email }),
        allowance,
        spent: allowance - remaining,
        remaining,
        tasks: Number(r.tasks),
        lastActive: toDate(r.last_active),
        createdAt: toDate(r.created_at) ?? new Date(0),
        disabled: r.disabled_at !== null && r.disabled_at !== undefined,
      };
    }),
  );
}
