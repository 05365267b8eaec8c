/**
 * The scripted model: a small OpenAI-compatible chat-completions endpoint (streaming SSE) on
 * 127.0.0.1. Every pi process of a test (the leader and all its teammates and reviewers) reaches it
 * through the same models.json, exactly as it would reach a user's own endpoint (see pi-env.ts).
 * A test decides each answer with a handler and asserts on `calls`, the exact requests the model saw.
 *
 * Who is calling (checked with pi 1.6.0): models.json header values resolve like apiKey, at request
 * time, from the calling process's environment. A plain "$PI_TEAMS_NAME" (provider- or model-level,
 * also "${PI_TEAMS_NAME}") works for a teammate, but when the variable is unset OR empty pi refuses
 * to send the request at all: `pi -p` exits 1 with 'API key auth failed for provider scripted:
 * Failed to resolve provider "scripted" header "x-pi-teams-agent" from environment variable:
 * PI_TEAMS_NAME'. Pi has no "${NAME:-default}" syntax (per dist/core/resolve-config-value.js such
 * a value is sent literally). The leader has neither variable, so plain interpolation would cut it
 * off from the model.
 * What works: pi's "!command" header form, which pi runs through /bin/sh for every request
 * (header commands are not cached; pi uses execSync, so each model call blocks the calling pi's
 * event loop for one `printf` through /bin/sh, measured at about 1.5-2 ms here):
 *   "x-pi-teams-identity": "!printf '%s/%s' \"${PI_TEAMS_ROLE:--}\" \"${PI_TEAMS_NAME:--}\""
 * The leader sends "-/-", teammate alice "worker/alice", a reviewer "reviewer/-" (or
 * "reviewer/<name>" if it is given a name). See `identify`. The product sets these variables on
 * its children anyway (src/mail/identity.ts), so there is no test-only code path.
 */
import { appendFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Request header carrying "<PI_TEAMS_ROLE>/<PI_TEAMS_NAME>", each "-" when unset or empty. */
export const IDENTITY_HEADER = "x-pi-teams-identity";

/** The models.json `headers` value that makes pi send IDENTITY_HEADER (a POSIX shell command). */
export const IDENTITY_HEADER_COMMAND = `!printf '%s/%s' "\${PI_TEAMS_ROLE:--}" "\${PI_TEAMS_NAME:--}"`;

/** One OpenAI chat message as pi sends it. `content` is a string, a list of parts, or null. */
export interface ChatMessage {
  role: string;
  content?: string | { type: string; text?: string }[] | null;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  name?: string;
}

/** A tool result the model is reacting to: the `tool` message's call id and flattened text. */
export interface ToolResult {
  id: string;
  content: string;
}

/** One request to the model, recorded on arrival. */
export interface ModelCall {
  /** "leader", the teammate's name (e.g. "alice"), or "reviewer" / "reviewer:<name>". */
  agent: string;
  /** The caller's PI_TEAMS_ROLE: "leader" when unset, else "worker" / "reviewer" / other value. */
  role: string;
  /** 1-based arrival number across all agents. */
  seq: number;
  /** Arrival time, ms since the epoch. */
  at: number;
  /** The model id pi asked for. */
  model: string;
  /** Text of the leading system (or developer) message, "" if none. */
  system: string;
  /** The messages exactly as sent. */
  messages: ChatMessage[];
  /** Flattened text of the last user message, "" if none. */
  lastUser: string;
  /** The trailing run of `tool` messages: the results this call answers ([] after a user turn). */
  toolResults: ToolResult[];
  /** Names of the tools offered. */
  tools: string[];
  /** Request headers (lower-case names). */
  headers: Record<string, string>;
  /** The parsed request body. */
  raw: unknown;
  /** The reply, once the handler has given it. */
  reply?: Reply;
}

/** A tool call the model makes. Without `id` one is generated ("call_<seq>_<index>"). */
export interface ReplyToolCall {
  name: string;
  arguments: Record<string, unknown>;
  id?: string;
}

/**
 * What the model answers. `text` and `toolCalls` may be combined (finish_reason is "tool_calls"
 * when there is any tool call, else "stop"). `delayMs` waits before answering; if the client
 * disconnects meanwhile (pi aborted) nothing is written. `error` answers HTTP `status` (default
 * 500) with an OpenAI-style error body, which pi surfaces as an assistant error message.
 */
export interface Reply {
  text?: string;
  toolCalls?: ReplyToolCall[];
  delayMs?: number;
  error?: string;
  status?: number;
  /**
   * Characters per stream delta of the text and of each tool call's arguments (default 16). Pi
   * re-sends the whole partial message on every delta, so a multi-megabyte argument needs large
   * deltas (the fault suite's bad-input matrix sends 3 MB messages in 1 MB deltas).
   */
  chunkSize?: number;
}

/** Decides the reply to a call. A throw answers HTTP 500 with the error's message. */
export type Handler = (call: ModelCall) => Reply | Promise<Reply>;

export interface ScriptedModel {
  /** Base URL without path, e.g. "http://127.0.0.1:39123". The API lives under `${url}/v1`. */
  url: string;
  /** Every request in arrival order. */
  calls: ModelCall[];
  /** Replaces the handler for calls arriving from now on. */
  setHandler(fn: Handler): void;
  /** The calls made by one agent ("leader", "alice", "reviewer", ...), in arrival order. */
  callsOf(agent: string): ModelCall[];
  /**
   * Resolves with the first call, already made or still to come, that matches `pred`.
   * @throws Error after `timeoutMs` (default 10 000 ms) without a match.
   */
  waitForCall(pred: (c: ModelCall) => boolean, timeoutMs?: number): Promise<ModelCall>;
  /** Stops listening and drops open connections. Pending delayed replies are abandoned. */
  close(): Promise<void>;
}

export interface ScriptedModelOptions {
  /** Initial handler; the default answers every call with the text "ok". */
  handler?: Handler;
  /** Appends one JSON line per call (`{"kind":"call",...}`) and per reply (`{"kind":"reply",seq,agent,reply}`). */
  logFile?: string;
}

/** Flattens message content (string or text parts) to plain text. */
export function contentText(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((p) => (typeof p.text === "string" ? p.text : "")).join("");
}

/**
 * Maps the identity header ("<role>/<name>", "-" for unset; missing header = leader) to the
 * `agent` and `role` of a call: no role -> "leader" (whatever the name); worker -> its name; reviewer -> "reviewer"
 * or "reviewer:<name>"; any other role -> its name, else the role.
 */
export function identify(headers: Record<string, string>): { agent: string; role: string } {
  const value = headers[IDENTITY_HEADER] ?? "-/-";
  const slash = value.indexOf("/");
  const clean = (v: string): string => (v.trim() === "-" ? "" : v.trim());
  const role = clean(slash < 0 ? value : value.slice(0, slash)) || "leader";
  const name = slash < 0 ? "" : clean(value.slice(slash + 1));
  if (role === "reviewer") return { agent: name ? `reviewer:${name}` : "reviewer", role };
  if (role === "leader") return { agent: "leader", role };
  return { agent: name || role, role };
}

function describeCall(body: Record<string, unknown>, headers: Record<string, string>, seq: number): ModelCall {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as ChatMessage[];
  const first = messages[0];
  const system = first && (first.role === "system" || first.role === "developer") ? contentText(first.content) : "";
  let lastUser = "";
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "user") {
      lastUser = contentText(m.content);
      break;
    }
  }
  const toolResults: ToolResult[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === "tool"; i--) {
    const m = messages[i] as ChatMessage;
    toolResults.unshift({ id: m.tool_call_id ?? "", content: contentText(m.content) });
  }
  const tools = (Array.isArray(body.tools) ? body.tools : [])
    .map((t: { function?: { name?: unknown }; name?: unknown }) => t.function?.name ?? t.name)
    .filter((n): n is string => typeof n === "string");
  return {
    ...identify(headers),
    seq,
    at: Date.now(),
    model: typeof body.model === "string" ? body.model : "",
    system,
    messages,
    lastUser,
    toolResults,
    tools,
    headers,
    raw: body,
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Splits text into a few stream deltas (about 16 characters each) like a real endpoint would. */
function pieces(text: string, size = 16): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function sendError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json", "x-should-retry": "false" });
  res.end(JSON.stringify({ error: { message, type: "scripted_error", code: null, param: null } }));
}

function streamReply(res: ServerResponse, call: ModelCall, reply: Reply, includeUsage: boolean): void {
  const id = `chatcmpl-scripted-${call.seq}`;
  const created = Math.floor(call.at / 1000);
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: call.model, choices, ...extra })}\n\n`;
  const delta = (d: Record<string, unknown>, finish: string | null = null): string =>
    chunk([{ index: 0, delta: d, finish_reason: finish }]);

  let out = delta({ role: "assistant", content: "" });
  const text = reply.text ?? "";
  for (const p of pieces(text, reply.chunkSize)) out += delta({ content: p });
  const calls = reply.toolCalls ?? [];
  calls.forEach((tc, index) => {
    const args = JSON.stringify(tc.arguments ?? {});
    const callId = tc.id ?? `call_${call.seq}_${index}`;
    out += delta({
      tool_calls: [{ index, id: callId, type: "function", function: { name: tc.name, arguments: "" } }],
    });
    for (const p of pieces(args, reply.chunkSize)) out += delta({ tool_calls: [{ index, function: { arguments: p } }] });
  });
  out += delta({}, calls.length > 0 ? "tool_calls" : "stop");
  if (includeUsage) {
    const promptTokens = Math.ceil(JSON.stringify(call.messages).length / 4);
    const completionTokens = Math.ceil((text.length + JSON.stringify(calls).length) / 4);
    out += chunk([], {
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
  }
  out += "data: [DONE]\n\n";
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.end(out);
}

/**
 * Starts the scripted model on 127.0.0.1 (random free port). Serves `POST /v1/chat/completions`
 * (also `/chat/completions`) and `GET /v1/models`; anything else is a 404.
 * @throws if the port cannot be bound.
 */
export async function startScriptedModel(opts: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  let handler: Handler = opts.handler ?? (() => ({ text: "ok" }));
  const calls: ModelCall[] = [];
  const waiters = new Set<(c: ModelCall) => void>();
  const log = (line: unknown): void => {
    if (opts.logFile) appendFileSync(opts.logFile, `${JSON.stringify(line)}\n`);
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && (path === "/v1/models" || path === "/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "scripted-1", object: "model", owned_by: "scripted" }] }));
      return;
    }
    if (req.method !== "POST" || (path !== "/v1/chat/completions" && path !== "/chat/completions")) {
      sendError(res, 404, `scripted model: no route ${req.method} ${path}`);
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch (e) {
      sendError(res, 400, `scripted model: request body is not JSON: ${String(e)}`);
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
    const call = describeCall(body, headers, calls.length + 1);
    calls.push(call);
    const { raw: _raw, ...logged } = call;
    log({ kind: "call", ...logged });
    for (const w of [...waiters]) w(call);

    let closed = false;
    res.on("close", () => {
      closed = true;
    });
    let reply: Reply;
    try {
      reply = await handler(call);
    } catch (e) {
      reply = { error: `scripted model handler threw: ${e instanceof Error ? e.message : String(e)}` };
    }
    call.reply = reply;
    log({ kind: "reply", seq: call.seq, agent: call.agent, reply });
    if (reply.delayMs && reply.delayMs > 0 && !closed) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reply.delayMs);
        res.once("close", () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (closed || res.destroyed) return;
    if (reply.error !== undefined) {
      sendError(res, reply.status ?? 500, reply.error);
      return;
    }
    const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
    if (body.stream === false) {
      // Not used by pi; answered minimally so a stray non-streaming client gets a sane body.
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: `chatcmpl-scripted-${call.seq}`, object: "chat.completion", model: call.model,
        choices: [{ index: 0, message: { role: "assistant", content: reply.text ?? "" }, finish_reason: "stop" }] }));
      return;
    }
    streamReply(res, call, reply, streamOptions?.include_usage === true);
  };

  const server = createServer((req, res) => {
    serve(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendError(res, 500, `scripted model: ${String(e)}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    setHandler(fn) {
      handler = fn;
    },
    callsOf(agent) {
      return calls.filter((c) => c.agent === agent);
    },
    waitForCall(pred, timeoutMs = 10_000) {
      const found = calls.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`scripted model: no matching call within ${timeoutMs} ms (${calls.length} calls so far)`));
        }, timeoutMs);
        const check = (c: ModelCall): void => {
          if (!pred(c)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(c);
        };
        waiters.add(check);
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
