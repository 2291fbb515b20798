# Sourced by the benchmarks that play a message (Usage: source Tests/bench/message.sh, from the
# repository's root): the release build in $cravey, a scratch folder $work removed on exit, the
# test speakers of Media/alsa, and a library $work/lib holding one message, the spoken phrase of
# Media recorded through the test microphone.
swift build -c release --static-swift-stdlib --product cravey >/dev/null
cravey=$(swift build -c release --static-swift-stdlib --show-bin-path)/cravey
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ALSA_CONFIG_PATH=$PWD/Media/alsa/cravey-test.conf CRAVEY_TRANSCRIBE=later
CRAVEY_ALSA_INFILE=$PWD/Media/phrase-48k-s16.raw "$cravey" record audio --mic cravey_file --max-seconds 4 \
  --title bench --library "$work/lib" >/dev/null 2>&1
