// Types for the parts of the `xliff` npm package the interop tests use (it ships none).
declare module 'xliff/xliff2js' {
  export default function xliff2js(xml: string): Promise<XliffJs>;
}
declare module 'xliff/xliff12ToJs' {
  export default function xliff12ToJs(xml: string): Promise<XliffJs>;
}
declare module 'xliff/createxliff' {
  export default function createxliff(
    sourceLanguage: string,
    targetLanguage: string,
    sources: Record<string, string>,
    targets: Record<string, string>,
    namespace: string,
  ): Promise<string>;
}
declare module 'xliff/createxliff12' {
  export default function createxliff12(
    sourceLanguage: string,
    targetLanguage: string,
    sources: Record<string, string>,
    targets: Record<string, string>,
    namespace: string,
  ): Promise<string>;
}
interface XliffJs {
  sourceLanguage: string;
  targetLanguage?: string;
  resources: Record<string, Record<string, { source: unknown; target?: unknown; note?: unknown }>>;
}
