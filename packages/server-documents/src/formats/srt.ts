/** SubRip subtitles: the text of each cue is translated; numbers, timings and blank lines stay as they are. */
import { type DocumentFormat, DocumentFormatError, decodeText, encodeText } from './format.js';
import { Template } from './template.js';

const TIMING = /^\s*\d{1,3}:\d{2}:\d{2}[,.]\d{1,3}\s*-->\s*\d{1,3}:\d{2}:\d{2}[,.]\d{1,3}/;

export const srtFormat: DocumentFormat = {
  name: 'SRT',
  maxBytes: 1024 * 1024,
  contentType: 'application/x-subrip; charset=utf-8',
  minimumBilled: 0,
  extract(bytes) {
    const { text, bom } = decodeText(bytes, 'SRT');
    const lines = text.split(/(\r?\n)/);
    const template = new Template();
    let cueLines: string[] = [];
    let timings = 0;
    const flushCue = () => {
      if (cueLines.length === 0) return;
      // Line breaks inside a cue are kept: the pipeline translates each line as its own unit.
      template.text(cueLines.join(''));
      cueLines = [];
    };
    let inCue = false;
    for (let i = 0; i < lines.length; i += 2) {
      const line = lines[i]!;
      const newline = lines[i + 1] ?? '';
      if (TIMING.test(line)) {
        flushCue();
        timings++;
        template.literal(line + newline);
        inCue = true;
      } else if (line.trim() === '') {
        flushCue();
        template.literal(line + newline);
        inCue = false;
      } else if (inCue) {
        cueLines.push(line + newline);
      } else template.literal(line + newline);
    }
    flushCue();
    if (timings === 0 && text.trim() !== '')
      throw new DocumentFormatError(
        'The SRT document has no cue timing line (00:00:01,000 --> 00:00:02,000).',
      );
    return { texts: template.texts, rebuild: (outputs) => encodeText(template.fill(outputs), bom) };
  },
};
