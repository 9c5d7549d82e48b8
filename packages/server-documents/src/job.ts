/**
 * The documents' own usage operation: the characters a job reserves when its format is read by the job
 * (OCR), once per document. Billing of the upload is not done here: the upload reserved it; the refund of a
 * failed document is the runner's (document-job.ts `refundOf`), once.
 */
import type { Caller, ServiceContext } from '@glossa/server/feature';
import { currentBillingPeriod, usageOperationId } from '@glossa/server/feature';
import type { DocumentRecord } from './records.js';

/**
 * Reserves `units` characters of the document's account for this billing period (a format read by the
 * job); the day, or undefined when the quota is full. Once per document (the operation
 * `jobs/<id>/reservation`, committed at once, pruned by the runner with its job's): a job run again after a
 * crash that came before its checkpoint recorded the reservation finds it made, and is not billed twice; nor
 * is an attempt that lost the document to another (on a fleet), whichever of the two reserves first.
 */
export async function reserveCharacters(
  context: ServiceContext,
  document: DocumentRecord,
  /** Undefined: no quota (`settleReservation`: a reservation made again to be refunded at once). */
  caller: Caller | undefined,
  units: number,
  period: ReturnType<typeof currentBillingPeriod> = currentBillingPeriod(),
): Promise<string | undefined> {
  const reserved = await context.storage.reserveCharacters({
    accountId: document.accountId,
    keyId: document.keyId,
    product: 'translate',
    customTag: '',
    units,
    day: period.today,
    periodFrom: period.fromDay,
    periodTo: period.toDay,
    limit: caller === undefined ? Number.MAX_SAFE_INTEGER : caller.account.characterLimit,
    operationId: usageOperationId(document.id, 'reservation'),
  });
  if (!reserved) return undefined;
  return period.today;
}
