/** Reading XLIFF 1.2, 2.0 and 2.1 into the unit model, keeping where each part sits in the file. */
import type { InlineCode } from '@glossa/core';
import { XliffError } from './errors.js';
import { type ReadInline, readInline } from './inline.js';
import {
  SEGMENT_STATES,
  type SegmentState,
  stateFrom12,
  type XliffDocument,
  type XliffFile,
  type XliffSegment,
  type XliffUnit,
  type XliffVersion,
} from './model.js';
import { childElements, localName, parseXml, textOf, type XmlElement } from './xml.js';

/** Where a segment sits in the file: what `translateXliff` needs to write a target in place. */
export interface SegmentPlace {
  readonly unit: XmlElement;
  /** 2.x `<segment>`; 1.2: the `<trans-unit>` (its `<target>` carries the state). */
  readonly holder: XmlElement;
  readonly source: XmlElement;
  readonly target: XmlElement | undefined;
  /** 1.2 segmented unit: the `mrk@mid` of this segment. */
  readonly mid?: string;
  readonly markup: ReadInline['markup'];
}

export interface ReadResult {
  readonly document: XliffDocument;
  readonly root: XmlElement;
  /** Per file, per unit, per segment: the same shape as `document`. */
  readonly places: readonly (readonly (readonly SegmentPlace[])[])[];
}

function invalid(message: string, at: XmlElement): never {
  throw new XliffError(message, 'invalid_xliff', at.line, at.column);
}

/** Units anywhere under `element`, through groups (`group` in both versions, `body` in 1.2). */
function unitsUnder(element: XmlElement, unitName: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (const child of childElements(element)) {
    const name = localName(child);
    if (name === unitName) found.push(child);
    else if (name === 'group' || name === 'body') found.push(...unitsUnder(child, unitName));
  }
  return found;
}

const notesOf = (unit: XmlElement, version: XliffVersion) =>
  (version === '1.2'
    ? childElements(unit, 'note')
    : childElements(unit, 'notes').flatMap((notes) => childElements(notes, 'note'))
  ).map(textOf);

function positiveInteger(value: string | undefined, at: XmlElement): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) invalid(`size restriction "${value}" is not a whole number`, at);
  return Number(value);
}

function read12Unit(unit: XmlElement, text: string): { unit: XliffUnit; places: SegmentPlace[] } {
  const id = unit.attributes['id'] ?? invalid('<trans-unit> has no id', unit);
  const source = childElements(unit, 'source')[0] ?? invalid(`<trans-unit id="${id}"> has no <source>`, unit);
  const target = childElements(unit, 'target')[0];
  const state = stateFrom12(target?.attributes['state']);
  const codes: Record<string, InlineCode> = {};
  const segments: XliffSegment[] = [];
  const places: SegmentPlace[] = [];
  const segSource = childElements(unit, 'seg-source')[0];
  const marks = (element: XmlElement | undefined) =>
    new Map(
      (element ? childElements(element, 'mrk') : [])
        .filter((mark) => mark.attributes['mtype'] === 'seg')
        .map((mark) => [mark.attributes['mid'] ?? invalid('segment <mrk> has no mid', mark), mark] as const),
    );
  const parts = segSource ? [...marks(segSource)] : [[undefined, source] as const];
  const targetMarks = marks(target);
  for (const [mid, sourcePart] of parts) {
    const read = readInline(sourcePart, text);
    Object.assign(codes, read.codes);
    const targetPart = mid === undefined ? target : targetMarks.get(mid);
    const targetRead = targetPart && readInline(targetPart, text);
    if (targetRead) for (const [codeId, code] of Object.entries(targetRead.codes)) codes[codeId] ??= code;
    segments.push({
      ...(mid === undefined ? {} : { id: mid }),
      source: read.xml,
      ...(targetRead ? { target: targetRead.xml } : {}),
      ...(targetRead && state ? { state } : {}),
    });
    places.push({
      unit,
      holder: unit,
      source: sourcePart,
      target: targetPart,
      ...(mid === undefined ? {} : { mid }),
      markup: read.markup,
    });
  }
  const maxLength =
    unit.attributes['size-unit'] === 'char' ? positiveInteger(unit.attributes['maxwidth'], unit) : undefined;
  return {
    unit: {
      id,
      notes: notesOf(unit, '1.2'),
      ...(maxLength === undefined ? {} : { maxLength }),
      codes,
      segments,
    },
    places,
  };
}

function read2Unit(unit: XmlElement, text: string): { unit: XliffUnit; places: SegmentPlace[] } {
  const id = unit.attributes['id'] ?? invalid('<unit> has no id', unit);
  const data = new Map(
    childElements(unit, 'originalData').flatMap((original) =>
      childElements(original, 'data').map((item) => [item.attributes['id'] ?? '', textOf(item)] as const),
    ),
  );
  const codes: Record<string, InlineCode> = {};
  const segments: XliffSegment[] = [];
  const places: SegmentPlace[] = [];
  for (const segment of childElements(unit, 'segment')) {
    const source =
      childElements(segment, 'source')[0] ?? invalid(`<segment> of unit "${id}" has no <source>`, segment);
    const target = childElements(segment, 'target')[0];
    const read = readInline(source, text, data);
    Object.assign(codes, read.codes);
    const targetRead = target && readInline(target, text, data);
    if (targetRead) for (const [codeId, code] of Object.entries(targetRead.codes)) codes[codeId] ??= code;
    const { state, subState } = segment.attributes;
    if (state !== undefined && !SEGMENT_STATES.includes(state as SegmentState))
      invalid(`unknown segment state "${state}"`, segment);
    segments.push({
      ...(segment.attributes['id'] === undefined ? {} : { id: segment.attributes['id'] }),
      source: read.xml,
      ...(targetRead ? { target: targetRead.xml } : {}),
      ...(state === undefined ? {} : { state: state as SegmentState }),
      ...(subState === undefined ? {} : { subState }),
    });
    places.push({ unit, holder: segment, source, target, markup: read.markup });
  }
  const restriction = Object.entries(unit.attributes).find(([name]) =>
    name.endsWith(':sizeRestriction'),
  )?.[1];
  const maxLength = positiveInteger(restriction, unit);
  return {
    unit: {
      id,
      notes: notesOf(unit, '2.1'),
      ...(maxLength === undefined ? {} : { maxLength }),
      codes,
      segments,
    },
    places,
  };
}

/** Parses an XLIFF 1.2 / 2.0 / 2.1 file. Throws `XliffError` with line and column on bad input. */
export function readXliff(text: string): ReadResult {
  if (typeof text !== 'string')
    throw new TypeError(`readXliff() expects the file's text as a string, got ${typeof text}`);
  const root = parseXml(text);
  if (localName(root) !== 'xliff') invalid(`root element is <${root.name}>, expected <xliff>`, root);
  const version = root.attributes['version'] as XliffVersion;
  if (!['1.2', '2.0', '2.1'].includes(version))
    invalid(`unsupported XLIFF version "${root.attributes['version']}" (1.2, 2.0 and 2.1 are read)`, root);
  const is12 = version === '1.2';
  const fileElements = childElements(root, 'file');
  const first = fileElements[0];
  const hasUnits = fileElements.some((file) => unitsUnder(file, is12 ? 'trans-unit' : 'unit').length > 0);
  // A file without units and without a source language is empty, not invalid: there is nothing to read.
  const sourceLanguage =
    (is12 ? first?.attributes['source-language'] : root.attributes['srcLang']) ??
    (hasUnits ? invalid('no source language', first ?? root) : '');
  const targetLanguage = is12 ? first?.attributes['target-language'] : root.attributes['trgLang'];
  const files: XliffFile[] = [];
  const places: SegmentPlace[][][] = [];
  for (const file of fileElements) {
    const units: XliffUnit[] = [];
    const filePlaces: SegmentPlace[][] = [];
    for (const unit of unitsUnder(file, is12 ? 'trans-unit' : 'unit')) {
      if (unit.attributes['translate'] === 'no') continue;
      const read = is12 ? read12Unit(unit, text) : read2Unit(unit, text);
      units.push(read.unit);
      filePlaces.push(read.places);
    }
    files.push({ id: (is12 ? file.attributes['original'] : file.attributes['id']) ?? '', units });
    places.push(filePlaces);
  }
  const document: XliffDocument = {
    version,
    sourceLanguage,
    ...(targetLanguage ? { targetLanguage } : {}),
    files,
  };
  return { document, root, places };
}

/** Parses an XLIFF file into its units. */
export function parseXliff(text: string): XliffDocument {
  return readXliff(text).document;
}
