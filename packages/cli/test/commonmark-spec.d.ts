/** The examples of the CommonMark spec, as the `commonmark-spec` package ships them (it has no types). */
declare module 'commonmark-spec' {
  const spec: {
    readonly text: string;
    readonly tests: readonly {
      readonly markdown: string;
      readonly html: string;
      readonly section: string;
      readonly number: number;
    }[];
  };
  export default spec;
}
