/** The usage records every store keeps (`storage.ts`), apart so the job runner's types can use them. */
/** Billing products: characters for translate and write, minutes for voice. */
export type UsageProduct = 'translate' | 'write' | 'speech_to_text' | 'speech_to_speech';
/** Products whose units count against the monthly character limit. */
export const CHARACTER_PRODUCTS: readonly UsageProduct[] = ['translate', 'write'];

export interface UsageRecord {
  readonly accountId: string;
  readonly keyId: string;
  readonly product: UsageProduct;
  readonly units: number;
  /** Custom reporting tag, already normalized; `''` when the request had none. */
  readonly customTag: string;
  /** UTC day, `YYYY-MM-DD`. */
  readonly day: string;
}
