/**
 * Public surface of src/process: the Pi RPC child client, its wire types, the spawner and the
 * pi CLI resolver. Other folders import from here only. Page: references/rpc-usage.md.
 */
export { attachJsonlReader, serializeJsonLine, type JsonlSource } from "./jsonl.ts";
export * from "./rpc-types.ts";
export { parseRpcLine } from "./rpc-parse.ts";
export { parseResponseData, type DataResult } from "./rpc-response-data.ts";
export {
  ChildExitedError,
  RpcCommandError,
  describeExit,
  type ChildExit,
  type TerminationReason,
} from "./child-errors.ts";
export { RpcChild, type RpcChildOptions, type RpcChildState } from "./rpc-client.ts";
export { RpcCommands, waitReady, type NextEventOptions, type SendOptions } from "./rpc-commands.ts";
export type { RpcChildStats, RpcDiagnostic, UiRequestRecord } from "./rpc-recorder.ts";
export { dialogResponse, type AnswerUi } from "./ui-dialogs.ts";
export { CAP_SYS_ADMIN, capMask, capsDrop, hasCap, readHostCaps, withoutSysAdmin, type CapsDrop, type HostCaps } from "./caps-drop.ts";
export { spawnPiChild, type PiChild, type SpawnCommand, type SpawnPiChildOptions, type Spawner, type StopOptions } from "./spawner.ts";
export { PI_PACKAGE_NAME, resolvePiCli, type ResolvePiCliOptions } from "./pi-cli.ts";
export { STDERR_TAIL_BYTES, openStderrLog, readTail, type StderrLog } from "./stderr-log.ts";
export { REVIEWER_TOOLS, reviewerArgs, startReviewer, type Reviewer, type ReviewerOptions } from "./reviewer.ts";
