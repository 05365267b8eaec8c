/**
 * A "billion laughs" agent file: 9 levels of 9 YAML aliases, 9^9 strings once expanded, about
 * 500 bytes on disk. `field` is the frontmatter key the top alias is put under.
 */
export function aliasBomb(field = "model"): string {
  const lines = ["---", `a0: &a0 [${Array(9).fill('"lol"').join(",")}]`];
  for (let i = 1; i <= 9; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(",")}]`);
  return [...lines, `${field}: *a9`, "---", "You explode.", ""].join("\n");
}
