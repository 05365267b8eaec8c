import { describe, expect, it } from "vitest";
import { bound, headOf } from "../../../src/board/verdict.ts";
import { resultPreview } from "../../../src/board/view.ts";

const loneSurrogate = (s: string): boolean => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

describe("cuts never split a surrogate pair (emoji, some CJK)", () => {
  it("headOf keeps whole characters", () => {
    expect(headOf("ab😀c", 3)).toBe("ab");
    expect(headOf("ab😀c", 4)).toBe("ab😀");
    expect(headOf("abc", 10)).toBe("abc");
  });

  it("the task_list preview and the submitted-result bound", () => {
    const p = resultPreview(`${"a".repeat(198)}😀 and more text after it`);
    expect(p.cut).toBe(true);
    expect(loneSurrogate(p.text)).toBe(false);
    expect(loneSurrogate(bound(`${"a".repeat(7999)}😀 tail`, 8000))).toBe(false);
  });
});
