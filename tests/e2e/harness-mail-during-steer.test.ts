/**
 * Regression (found by bench/route-latency.ts): mail read while a steer to a working teammate
 * was in flight found `delivering` set, queued itself, and then waited for the end of the run,
 * because only an idle teammate got a second delivery. A teammate on a long task never got it.
 * Drives a real LeaderHarness with a real pi teammate held in a model call that never returns.
 */
import { describe, expect, it } from "vitest";
import { useCleanups } from "../support/cleanups.ts";
import { LeaderHarness } from "../../src/harness/harness.ts";
import type { MailDelivery } from "../../src/team/leader-delivery.ts";
import { appendInboxRecord } from "../../src/mail/index.ts";
import type { RpcChild, RpcCommand } from "../../src/process/index.ts";
import { boardLayout, runtimeLayout } from "../../src/store/index.ts";
import { agentFile, PACKAGE_DIR, writeAgents } from "../support/leader.ts";
import { peerMailAs } from "../support/peer-mail.ts";
import { createPiEnv, SCRIPTED_MODEL_ID, SCRIPTED_PROVIDER } from "../support/pi-env.ts";
import { startScriptedModel, type Reply } from "../support/scripted-model.ts";

const cleanup = useCleanups();

async function until(done: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function world(): Promise<{ harness: LeaderHarness; delivered: MailDelivery[] }> {
  const held: (() => void)[] = [];
  const model = await startScriptedModel({
    handler: (call) => (call.agent === "frank" ? new Promise<Reply>((resolve) => held.push(() => resolve({ text: "ok" }))) : { text: "ok" }),
  });
  const env = await createPiEnv({ model });
  await writeAgents(env, { "worker.md": agentFile("worker", "You are a test teammate.") });
  const layout = runtimeLayout(env.agentDir, "mail-during-steer");
  const delivered: MailDelivery[] = [];
  const harness = new LeaderHarness({
    cwd: env.cwd, layout, boardDir: boardLayout(env.agentDir, "mail-during-steer").root, agentDir: env.agentDir,
    piCli: env.piCli, packageDir: PACKAGE_DIR, env: env.env, trusted: () => true,
    leaderModel: () => ({ provider: SCRIPTED_PROVIDER, id: SCRIPTED_MODEL_ID }),
  });
  harness.on("mail_delivered", ({ delivery }) => delivered.push(delivery));
  const release = (): void => held.splice(0).forEach((answer) => answer());
  cleanup(async () => {
    release();
    await harness.close();
    await model.close();
    await env.cleanup();
  });
  await harness.start();
  return { harness, delivered };
}

describe("mail to a working teammate", () => {
  it("mail read while a steer is in flight is steered too, not left until the run ends", async () => {
    const { harness, delivered } = await world();
    await harness.spawn({ name: "frank", agent: "worker" });
    await harness.spawn({ name: "gina", agent: "worker" }); // the peer whose mail is read mid-steer
    await harness.sendFromLeader({ to: "frank", message: "Start the long task." }); // wakes frank; its model call never returns
    const frank = harness.living("frank")!;
    await until(() => frank.status === "working" && delivered.length === 1, "frank to be working");

    const inbox = frank.inbox.path;
    const second = peerMailAs(harness, "gina", "frank", "second, written while the first is being steered");
    const child = frank.proc!.child;
    const send = child.send.bind(child);
    let intercepted = false;
    Object.assign(child, {
      send: async (command: RpcCommand, options?: Parameters<RpcChild["send"]>[1]) => {
        if (!intercepted && command.type === "prompt") {
          intercepted = true; // hold the first steer until the harness has read the second record
          await appendInboxRecord(inbox, second);
          await until(() => frank.pendingMail.length > 0, "the second record to be read while the steer is in flight");
        }
        return send(command, options);
      },
    });

    const first = peerMailAs(harness, "gina", "frank", "first");
    await appendInboxRecord(inbox, first);
    await until(() => delivered.some((d) => d.records.some((r) => r.id === second.id)), "the second record to be delivered", 3000);
    expect(frank.status).toBe("working");
    expect(delivered.slice(1).map((d) => d.records.map((r) => r.body))).toEqual([["first"], ["second, written while the first is being steered"]]);
  });
});
