/**
 * Why a trial is UNKNOWN and failed when errors raised outside the awaited call could not be tied to one attempt,
 * before the reason its arms gave (aggregate/stray-errors).
 */
export function strayErrorsText(strayErrors: readonly string[], armsReason: string): string {
  const count = strayErrors.length;
  const first = strayErrors[0] ?? '';
  return (
    `harness: ${count} error${count === 1 ? '' : 's'} raised outside the awaited call while this trial ran could not be tied to one attempt (${first}), so no verdict can stand` +
    (armsReason ? `; the arms alone: ${armsReason}` : '')
  );
}
