/**
 * The speech recognizer helper: a Python program run by Debian's `/usr/bin/python3` with the
 * `python3-pocketsphinx` library (the same decoder `pocketsphinx_continuous` runs, used as a library so it can
 * report partial hypotheses). Kept here as a string (like the Grammalecte worker) so it ships inside `dist`.
 *
 * Protocol, over the helper's stdin and stdout:
 * - stdin: one JSON line `{"hmm", "lm", "dict", "words": [[word, "PH ON ES"], ...]}`, then raw 16 kHz mono
 *   s16le audio until end of file;
 * - stdout, one JSON object per line: `{"type":"ready","added":[word...]}` once the model is loaded and the
 *   words missing from its dictionary were added (words it knows keep their pronunciations);
 *   `{"type":"partial","text"}` whenever the hypothesis of the open utterance changes;
 *   `{"type":"final","text","start","end"}` when voice activity detection closes an utterance (`start`:
 *   seconds of audio before it, `end`: seconds of audio read so far), and for the last utterance at end of input; `{"type":"done"}` before exiting 0.
 * Audio is decoded in 100 ms steps so an utterance ends within one step of the detector's decision; the steps
 * are whole steps of the audio from its start (a read's incomplete step waits for the next read), so the
 * same audio gives the same utterances and spans however the pipe splits it (a resumed voice job's chunks,
 * test/voice-recognizer-steps.test.ts). A partial is reported at most once per read (a read takes what the
 * pipe holds, up to 1 s of audio).
 */
export const RECOGNIZER_SCRIPT = String.raw`
import ctypes, json, sys
try:
    ctypes.CDLL(None).prctl(15, b"glossa-asr", 0, 0, 0)
except Exception:
    pass
from pocketsphinx import Decoder

out = sys.stdout
def emit(message):
    out.write(json.dumps(message) + "\n")
    out.flush()

source = sys.stdin.buffer
settings = json.loads(source.readline())
config = Decoder.default_config()
config.set_string("-hmm", settings["hmm"])
config.set_string("-lm", settings["lm"])
config.set_string("-dict", settings["dict"])
config.set_string("-logfn", "/dev/null")
# An utterance ends after 0.3 s of silence (the library's default, 0.5 s, made finals 0.2 s later).
config.set_int("-vad_postspeech", 30)
decoder = Decoder(config)
# The phones of the en-us model: a pronunciation with any other would make add_word fail.
PHONES = set("""AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH
UH UW V W Y Z ZH""".split())
words = {
    word: phones
    for word, phones in settings.get("words", [])
    if phones.split() and set(phones.split()) <= PHONES
}
added = [word for word in words if decoder.lookup_word(word) is None]
for index, word in enumerate(added):
    # The search is rebuilt once, with the last word.
    decoder.add_word(word, words[word], 1 if index == len(added) - 1 else 0)
emit({"type": "ready", "added": added})

STEP = 3200
READ = 32000

def hypothesis():
    best = decoder.hyp()
    return best.hypstr if best else ""

decoder.start_utt()
in_utterance = False
utterance_start = 0.0
last_partial = ""
audio_bytes = 0
rest = b""
while True:
    data = source.read1(READ)
    ended = not data
    data = rest + data
    # Whole steps only (the rest waits for the next read), so the steps fall at the same offsets of the
    # audio whatever the pipe's reads hold; at end of input, the last (even) rest.
    usable = len(data) - len(data) % (2 if ended else STEP)
    data, rest = data[:usable], data[usable:]
    for start in range(0, len(data), STEP):
        piece = data[start:start + STEP]
        decoder.process_raw(piece, False, False)
        audio_bytes += len(piece)
        speech = decoder.get_in_speech()
        if speech and not in_utterance:
            in_utterance = True
            # The detector opens an utterance a little after the speech starts: 0.1 s back.
            utterance_start = max(0.0, (audio_bytes - len(piece)) / 32000 - 0.1)
        elif in_utterance and not speech:
            decoder.end_utt()
            emit({"type": "final", "text": hypothesis(), "start": utterance_start, "end": audio_bytes / 32000})
            decoder.start_utt()
            in_utterance = False
            last_partial = ""
    if ended:
        break
    if in_utterance:
        text = hypothesis()
        if text != last_partial:
            last_partial = text
            emit({"type": "partial", "text": text})
decoder.end_utt()
if in_utterance:
    emit({"type": "final", "text": hypothesis(), "start": utterance_start, "end": audio_bytes / 32000})
emit({"type": "done"})
`;
