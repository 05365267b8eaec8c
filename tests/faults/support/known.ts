/**
 * Known defects the fault suite found in src/ (another engineer fixes them). While one is
 * listed here, the cases report what they see for it in their figures instead of failing on
 * it; every other guarantee stays asserted. Remove an entry once it is fixed, and the cases
 * assert it again.
 */
export const KNOWN_DEFECTS = {
  /**
   * Mail order across wakes: under CPU load a few peer messages are occasionally handed to the
   * teammate one model request later than messages appended after them (seen in the 10,000
   * message flood: F-00698 and F-00699 arrived in the wake after the one carrying F-00700).
   * Nothing is lost or duplicated. Reproduction: docs/reliability.md, "Known defects".
   */
  mailOrderAcrossWakes: true,
} as const;
