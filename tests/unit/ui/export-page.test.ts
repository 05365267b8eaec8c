import { describe, expect, it } from "vitest";
import type { TimelineEvent } from "../../../src/feed/index.ts";
import { CSP, exportPage, type RunExportInput } from "../../../src/ui/export-page.ts";
import { clockLabel, laneNames, timelineSvg } from "../../../src/ui/timeline-svg.ts";
import { fixtureSnapshot, NOW } from "./fixture.ts";

const EVIL = `</pre><script>alert(1)</script>"><img src=x onerror=alert(2)>`;
const phase = (at: number, name: string, p: string, spawnId = `${name}-1`): TimelineEvent => ({ kind: "phase", at, name, spawnId, phase: p });

function input(over: Partial<RunExportInput> = {}): RunExportInput {
  const snap = fixtureSnapshot();
  return {
    key: "abc123",
    cwd: "/repo",
    startedAt: NOW - 60_000,
    endedAt: NOW,
    snapshot: {
      ...snap,
      mail: [...snap.mail, { at: NOW - 1000, kind: "peer", from: "alice", to: "bob", title: EVIL, body: EVIL, receipt: "queued" }],
      tasks: snap.tasks.map((t, i) => (i === 0 ? { ...t, result: EVIL, findings: EVIL, subject: EVIL } : t)),
    },
    teammates: snap.teammates.map((m, i) => ({ ...m, spawnId: `spawn-${i}` })),
    timeline: [phase(NOW - 60_000, "alice", "starting"), phase(NOW - 50_000, "alice", "working"), { kind: "task", at: NOW - 40_000, taskId: "t-1", subject: EVIL, status: "claimed", who: "alice" }],
    transcripts: [
      { name: "alice", spawnId: "a1", html: `<html><body><script>document.title="x"</script>${EVIL}</body></html>` },
      { name: "bob", spawnId: "b1", lines: [EVIL] },
      { name: "carol", spawnId: "c1", note: "No session file: its launcher runs pi elsewhere." },
    ],
    ...over,
  };
}

describe("exportPage (issue 20, the run export)", () => {
  const html = exportPage(input());

  it("escapes every text a teammate wrote: no tag or attribute of theirs survives", () => {
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;");
  });

  it("forbids the page and its frames every request outside the file (Pi's script turns markdown images into <img>)", () => {
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CSP}">`);
    expect(CSP).toMatch(/^default-src 'none';/);
    expect(CSP).not.toMatch(/https?:|\*/);
  });

  it("drops control characters a teammate put in its text, as the console does", () => {
    const page = exportPage(input({ snapshot: { ...fixtureSnapshot(), mail: [{ at: NOW, kind: "peer", from: "a", to: "b", title: "t", body: "bell\x07 esc\x1b[31m nul\x00 tab\tend", receipt: "queued" }] } }));
    expect(page).toContain("bell esc[31m nul tab\tend");
    expect(page).not.toMatch(/[\x00\x07\x1b]/);
  });

  it("shows a message with no body by its title", () => {
    const page = exportPage(input({ snapshot: { ...fixtureSnapshot(), mail: [{ at: NOW, kind: "peer", from: "a", to: "b", title: "(no content)", body: "", receipt: "queued" }] } }));
    expect(page).toContain("<td>a → b</td><td>(no content)</td>");
  });

  it("lists every incarnation, a respawned name twice", () => {
    const [first] = fixtureSnapshot().teammates;
    const page = exportPage(input({ teammates: [{ ...first!, spawnId: "11111111-a" }, { ...first!, spawnId: "22222222-b" }] }));
    expect(page).toContain("2 teammate incarnations");
    expect(page).toContain("<code>11111111</code>");
    expect(page).toContain("<code>22222222</code>");
  });

  it("embeds Pi's transcript export in a frame that may run its script but has no origin of its own", () => {
    const frame = /<iframe ([^>]*)>/.exec(html)?.[1] ?? "";
    expect(frame).toMatch(/^sandbox="allow-scripts" /);
    expect(frame).not.toContain("allow-same-origin");
    expect(frame).toContain('srcdoc="&lt;html&gt;&lt;body&gt;&lt;script&gt;document.title=&quot;x&quot;&lt;/script&gt;');
  });

  it("falls back to plain lines, then to the reason, per incarnation", () => {
    expect(html).toMatch(/@bob <span class="muted">\(b1\)<\/span><\/summary><pre>&lt;\/pre&gt;/);
    expect(html).toContain("No session file: its launcher runs pi elsewhere.");
  });

  it("is self-contained: no script of its own and no link or source outside the file", () => {
    const outside = html.replace(/srcdoc="[^"]*"/g, "");
    expect(outside).not.toMatch(/<script|<link|\ssrc="|href="|url\(/i);
  });

  it("has the sections, each teammate of the snapshot, and the board's results and costs", () => {
    for (const h of ["Timeline", "Teammates", "Board", "Mail", "Transcripts"]) expect(html).toContain(`<h2>${h}</h2>`);
    for (const m of fixtureSnapshot().teammates) expect(html).toContain(`<td>@${m.name}</td>`);
    expect(html).toContain("<summary>result</summary>");
    expect(html).toContain("<summary>reviewer findings</summary>");
  });
});

describe("timelineSvg", () => {
  it("draws one lane per teammate, first seen first, with every snapshot name too", () => {
    const events = [phase(0, "b", "starting"), phase(0, "a", "starting"), phase(10, "b", "working")];
    expect(laneNames(events, ["a", "c"])).toEqual(["b", "a", "c"]);
    const svg = timelineSvg({ events, messages: [], start: 0, end: 1000, names: ["c"] });
    expect([...svg.matchAll(/<g class="lane" data-teammate="([^"]+)">/g)].map((m) => m[1])).toEqual(["b", "a", "c"]);
  });

  it("keeps one lane for a name spelt in two cases, and cuts a long label", () => {
    const long = "a-very-long-teammate-name";
    const svg = timelineSvg({ events: [phase(0, "Alice", "idle"), phase(5, "alice", "working", "s2"), phase(0, long, "idle")], messages: [], start: 0, end: 10 });
    expect(svg.match(/<g class="lane"/g)).toHaveLength(2);
    expect(svg).toContain("@a-very-long-tea…<title>@a-very-long-teammate-name</title>");
  });

  it("ends an incarnation's bar where the next one begins when its stop was not seen", () => {
    const events = [phase(0, "a", "working", "s1"), phase(4000, "a", "starting", "s2")];
    const svg = timelineSvg({ events, messages: [], start: 0, end: 10_000 });
    expect(svg).toContain("@a working from 0s to 4s");
    expect(svg).toContain("@a starting from 4s to 10s");
  });

  it("draws phase bars until the next change, and nothing once stopped", () => {
    const events = [phase(0, "a", "starting"), phase(2000, "a", "working"), phase(6000, "a", "stopped")];
    const svg = timelineSvg({ events, messages: [], start: 0, end: 10_000 });
    expect(svg.match(/class="phase starting"/g)).toHaveLength(1);
    expect(svg.match(/class="phase working"/g)).toHaveLength(1);
    expect(svg).not.toContain('class="phase stopped"');
    expect(svg).toContain("@a working from 2s to 6s");
  });

  it("gives a second incarnation its bars on the same lane", () => {
    const events = [phase(0, "a", "working", "s1"), phase(1000, "a", "stopped", "s1"), phase(2000, "a", "working", "s2")];
    const svg = timelineSvg({ events, messages: [], start: 0, end: 3000 });
    expect(svg.match(/<g class="lane"/g)).toHaveLength(1);
    expect(svg.match(/class="phase working"/g)).toHaveLength(2);
  });

  it("marks messages on the sender's lane, or the recipient's when the sender has none", () => {
    const events = [phase(0, "a", "idle"), phase(0, "b", "idle")];
    const svg = timelineSvg({ events, messages: [{ at: 500, from: "a", to: "b", title: "hi" }, { at: 600, from: "leader", to: "b", title: "go" }], start: 0, end: 1000 });
    const lanes = svg.split('<g class="lane"').slice(1);
    expect(lanes[0]).toContain("a → b: hi");
    expect(lanes[1]).toContain("leader → b: go");
    expect(lanes[1]).not.toContain("a → b");
  });

  it("keeps marks inside the drawing for events before the start or after the end, and a zero-length run", () => {
    const svg = timelineSvg({ events: [phase(-5000, "a", "working")], messages: [{ at: 99_999, from: "a", to: "b", title: "late" }], start: 0, end: 0 });
    const xs = [...svg.matchAll(/ x1?="(-?[\d.]+)"/g)].map((m) => Number(m[1]));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThanOrEqual(1000);
  });

  it("labels the clock in seconds, minutes and hours", () => {
    expect([clockLabel(0), clockLabel(59_400), clockLabel(65_000), clockLabel(3_720_000)]).toEqual(["0s", "59s", "1m05s", "1h02m"]);
  });
});
