import { describe, expect, it, vi } from "vitest";
import { nextTurnNote, sendAsUser, USER_MESSAGE_EVENT } from "../../../src/leader/user-orders.ts";

describe("sendAsUser (issue 21: the user's own message)", () => {
  it("sends the trimmed text, tells the leader's next turn, and answers with the receipt", async () => {
    const send = vi.fn(async (req: { to: string; message: string }) => ({ to: req.to, result: "steered" as const }));
    const note = vi.fn();
    expect(await sendAsUser(send, note, "ana", "  Stop and report.  ")).toBe("@ana: steered");
    expect(send).toHaveBeenCalledWith({ to: "ana", message: "Stop and report." });
    expect(note).toHaveBeenCalledWith(USER_MESSAGE_EVENT, "ana", expect.stringMatching(/^The user wrote to @ana from the console \(steered\)[^\n]*\nStop and report\.$/));
  });

  it("refuses an empty text with nothing sent or noted; a refused recipient notes nothing", async () => {
    const send = vi.fn(async () => {
      throw new Error('send_message: "zed" is not a living teammate');
    });
    const note = vi.fn();
    await expect(sendAsUser(send, note, "ana", " \n ")).rejects.toThrow("The message is empty");
    await expect(sendAsUser(send, note, "zed", "hi")).rejects.toThrow("not a living teammate");
    expect(send).toHaveBeenCalledTimes(1);
    expect(note).not.toHaveBeenCalled();
  });

  it("nextTurnNote queues a harness event for the next turn, starting none", () => {
    const sendMessage = vi.fn();
    nextTurnNote({ sendMessage })(USER_MESSAGE_EVENT, "ana", "body");
    expect(sendMessage).toHaveBeenCalledWith(
      expect.objectContaining({ customType: "harness-event", display: true, content: expect.stringContaining('<harness-event type="user_message" teammate="ana">'), details: { type: USER_MESSAGE_EVENT, teammate: "ana" } }),
      { deliverAs: "nextTurn" },
    );
  });
});
