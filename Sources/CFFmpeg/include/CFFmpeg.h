// CFFmpeg: the C layer between cravey and the FFmpeg libraries (5.1 API).
//
// Why a shim: FFmpeg's API is pointer juggling (AVFormatContext → AVStream → AVCodecParameters,
// `uint8_t **data` planes, AVERROR macros) that Swift imports badly. This layer owns every FFmpeg
// object and offers a few whole operations: a fragmented writer (AAC, and H.264 from raw or
// camera frames), an in-process remux that finalizes (or recovers) a fragmented file, a copy with
// new tags (a recording's own description) and a tag reader, a probe, a
// thumbnailer, audio and video decoders, and the camera's MJPEG decoder. Errors are
// negative AVERROR codes; CFFmpeg_strerror gives FFmpeg's text for them. Functions are prefixed
// CFFmpeg_, one per stage, in the style of FFmpeg's doc/examples/mux.c.
#ifndef CFFMPEG_H
#define CFFMPEG_H

#include <stddef.h>
#include <stdint.h>

/// A SHA-256 being computed (libavutil's av_sha; opens libavutil alone on first use).
typedef struct CFFmpeg_sha256 CFFmpeg_sha256;
/// Starts a hash: 0, or a negative errno (-ENOENT: libavutil cannot be loaded, see
/// CFFmpegHash_load_message).
int CFFmpeg_sha256_begin(CFFmpeg_sha256 **out);
/// Adds `count` bytes.
void CFFmpeg_sha256_update(CFFmpeg_sha256 *hash, const void *bytes, size_t count);
/// Writes the 32-byte digest and frees the hash.
void CFFmpeg_sha256_finish(CFFmpeg_sha256 *hash, uint8_t digest[32]);
/// Why libavutil could not be loaded for hashing ("" when it was).
const char *CFFmpegHash_load_message(void);

/// AVERROR_INVALIDDATA: not media, or nothing playable in it.
extern const int CFFmpeg_AVERROR_INVALIDDATA;
/// FFmpeg's message for an error code, written to `buffer`.
void CFFmpeg_strerror(int error, char *buffer, size_t size);

/// The pixel layouts frames cross this shim in, always tightly packed (alignment 1).
typedef enum { CFFmpeg_PIXELS_YUV420P = 0, CFFmpeg_PIXELS_RGB24 = 1, CFFmpeg_PIXELS_YUYV = 2 } CFFmpeg_pixels;

/// Bytes of one tightly packed `width`×`height` frame in `layout`, from FFmpeg's own
/// av_image_get_buffer_size: odd sides round the chroma planes up (w·h + 2·⌈w/2⌉·⌈h/2⌉ for
/// yuv420p), which w·h·3/2 gets wrong. Negative AVERROR for an impossible size.
int64_t CFFmpeg_frame_bytes(CFFmpeg_pixels layout, int width, int height);

/// A media file being written: AAC audio and/or H.264 video in an MP4-family container.
typedef struct CFFmpeg_writer CFFmpeg_writer;

/// Opens `path` for writing AAC-LC audio of `channels` float channels at `sample_rate`.
/// The container follows the extension (.m4a, .mov, .mp4). With `fragmented`, the file is a
/// fragmented MP4 (empty moov, ~1 s fragments) so that a crash loses at most the last fragment.
int CFFmpeg_writer_open_audio(const char *path, int sample_rate, int channels, int bit_rate, int fragmented,
                              CFFmpeg_writer **out);

/// What a writer with video writes: H.264 from yuv420p (or YUYV) frames of `in_width`×`in_height`, scaled
/// (libswscale) to `width`×`height`; and, with `sample_rate` > 0, AAC audio as above.
typedef struct {
    int in_width;
    int in_height;
    int in_yuyv;        ///< frames are packed YUYV 4:2:2 (as many webcams deliver) instead of yuv420p
    int width;
    int height;
    int fps;            ///< nominal rate: a keyframe at least every `fps` frames (one second)
    int crf;            ///< x264 constant rate factor (23 is sensible)
    const char *preset; ///< x264 preset, e.g. "veryfast"
    int threads;        ///< encoder threads (0 = x264 decides)
    const char *x264_params; ///< extra x264 options, "key=value:key=value" (NULL for none)
    int sample_rate;    ///< 0 for a silent video
    int channels;
    int audio_bit_rate;
} CFFmpeg_video_config;

/// Opens `path` (a .mov, or a .mov.part while recording) for H.264 video and optional AAC audio,
/// fragmented like the audio writer (fragments start at keyframes, about a second long).
int CFFmpeg_writer_open_video(const char *path, const CFFmpeg_video_config *config, int fragmented, CFFmpeg_writer **out);

/// Encodes one yuv420p frame (Y, then U, then V, tightly packed) shown at `pts_us` microseconds
/// from the start: timestamps come from the camera, so dropped frames leave honest gaps.
/// Video and audio may be written from two threads at once (one thread each): the muxer is locked.
/// `bytes` is the buffer's size: a frame smaller than CFFmpeg_frame_bytes is refused (AVERROR(EINVAL)).
int CFFmpeg_writer_write_video(CFFmpeg_writer *writer, const void *yuv420p, int64_t bytes, int64_t pts_us);

/// Video frames encoded so far.
int64_t CFFmpeg_writer_video_frames(const CFFmpeg_writer *writer);

/// Encodes `frames` frames of interleaved float samples (the whole file's timeline is the sample
/// count: pts never come from a clock). Returns 0 or a negative AVERROR.
int CFFmpeg_writer_write_audio(CFFmpeg_writer *writer, const float *samples, int frames);

/// Encodes a whole sound already in memory (`frames` frames of interleaved floats) on `parts`
/// threads: each encodes one stretch with an AAC encoder of its own, fed from a little before its
/// stretch to a little after (so its first kept frame has the same history and its last the same
/// look-ahead as in one encoder), and the packets are written in order as one encoder writes them.
/// Only for an audio-only writer that has been given nothing yet (an import); then finish.
/// Returns 0 or a negative AVERROR.
int CFFmpeg_writer_write_audio_parallel(CFFmpeg_writer *writer, const float *samples, int64_t frames, int parts);

/// Flushes buffered bytes to the file (so a following fsync makes them durable).
int CFFmpeg_writer_flush(CFFmpeg_writer *writer);

/// Samples written so far.
int64_t CFFmpeg_writer_samples(const CFFmpeg_writer *writer);

/// Drains the encoder and writes the trailer. Returns 0 or a negative AVERROR.
int CFFmpeg_writer_finish(CFFmpeg_writer *writer);

/// Frees everything (closing the file); safe after finish or after a failure.
void CFFmpeg_writer_free(CFFmpeg_writer *writer);

/// Copies the streams of `input` (a fragmented temporary file of CFFmpeg_writer, possibly
/// truncated by a crash) into a regular file at `output`, dropping incomplete or corrupt trailing
/// packets. A fragmented file has no edit list, so the AAC encoder's priming samples
/// (`audio_priming`, see CFFmpeg_aac_priming) are marked to be skipped again, and each stream's
/// last packet is trimmed to the stream's recorded length: the result lasts exactly as many
/// samples as were written. `packets` receives how many packets were kept and `info` the facts of
/// the file written, as CFFmpeg_probe would read them from it. Returns 0, AVERROR_INVALIDDATA
/// when nothing in the input is playable, or another negative AVERROR.
typedef struct CFFmpeg_probe_info CFFmpeg_probe_info;
int CFFmpeg_remux(const char *input, const char *output, int audio_priming, int64_t *packets, CFFmpeg_probe_info *info);

/// Copies a finished file into `output` (same container, by extension) packet for packet, its
/// timestamps and edit lists unchanged, with the file-level tags `keys[i]` = `values[i]` (UTF-8)
/// in place of the ones it had. They are written as QuickTime metadata keys (`mdta`), which hold
/// any name and any length; `title` and `comment` are what players show. `packets` receives how
/// many packets were copied. Returns 0 or a negative AVERROR (a truncated input is refused).
int CFFmpeg_retag(const char *input, const char *output, const char *const *keys, const char *const *values,
                  int count, int64_t *packets);

/// Reads one file-level tag: `*value` is a copy to release with CFFmpeg_free, or NULL when the
/// file has no such tag. Returns 0 or a negative AVERROR.
int CFFmpeg_read_tag(const char *path, const char *key, char **value);

/// Releases memory this shim handed out.
void CFFmpeg_free(void *pointer);

/// The priming samples (encoder delay) of FFmpeg's AAC encoder at `sample_rate`, mono.
int CFFmpeg_aac_priming(int sample_rate);

/// A media file's audio, decoded and resampled to interleaved S16 (for a speaker) or float (for
/// the encoder) at a chosen rate and layout.
typedef struct CFFmpeg_decoder CFFmpeg_decoder;

/// Opens the first audio stream of `path`, to be delivered as `channels` channels of S16 (or of
/// float with `as_float`) at `sample_rate`. Returns 0 or a negative AVERROR
/// (AVERROR_STREAM_NOT_FOUND without audio).
int CFFmpeg_decoder_open(const char *path, int sample_rate, int channels, int as_float, CFFmpeg_decoder **out);
/// Decodes up to `max_frames` frames into `samples` (short or float, as opened). Returns frames
/// (> 0), 0 at the end, or a negative AVERROR.
int CFFmpeg_decoder_read(CFFmpeg_decoder *decoder, void *samples, int max_frames);
/// Moves to `seconds` exactly: seeks to the packet before it and discards samples up to it.
int CFFmpeg_decoder_seek(CFFmpeg_decoder *decoder, double seconds);
/// The position of the next sample read, in output samples from the start.
int64_t CFFmpeg_decoder_position(const CFFmpeg_decoder *decoder);
/// Also catches the video's picture shown at `seconds` while the sound is read (its packets pass
/// by anyway), so a finished video's thumbnail needs no second opening of the file. 0, or
/// AVERROR_STREAM_NOT_FOUND without a video stream. Call before the first read.
int CFFmpeg_decoder_catch_picture(CFFmpeg_decoder *decoder, double seconds);
/// Once the sound has been read to its end: writes the caught picture (the last one of a video
/// shorter than the time) `width` pixels wide as a JPEG, like CFFmpeg_thumbnail.
int CFFmpeg_decoder_write_picture(CFFmpeg_decoder *decoder, int width, const char *jpeg_path);
void CFFmpeg_decoder_free(CFFmpeg_decoder *decoder);

/// A media file's pictures, decoded and scaled (libswscale) to the size and layout the caller
/// draws (RGB24) or encodes (yuv420p), tightly packed.
typedef struct CFFmpeg_video_decoder CFFmpeg_video_decoder;

/// Opens the first video stream of `path`, delivered at `width`×`height` (0, 0: its own size) as
/// RGB24 when `rgb`, else yuv420p. AVERROR_STREAM_NOT_FOUND without video.
int CFFmpeg_video_decoder_open(const char *path, int width, int height, int rgb, CFFmpeg_video_decoder **out);
/// The delivered size.
int CFFmpeg_video_decoder_size(const CFFmpeg_video_decoder *decoder, int *width, int *height);
/// The stream's average frame rate (0 when unknown).
double CFFmpeg_video_decoder_fps(const CFFmpeg_video_decoder *decoder);
/// Decodes the next frame into `buffer` of `bytes` bytes (NULL: decode without converting; a buffer
/// smaller than CFFmpeg_frame_bytes is refused) and its presentation time in seconds from the
/// stream's start into `pts`. Returns 1, 0 at the end, or a negative AVERROR.
int CFFmpeg_video_decoder_read(CFFmpeg_video_decoder *decoder, uint8_t *buffer, int64_t bytes, double *pts);
/// Moves so that the next frame read is the one shown at `seconds`.
int CFFmpeg_video_decoder_seek(CFFmpeg_video_decoder *decoder, double seconds);
void CFFmpeg_video_decoder_free(CFFmpeg_video_decoder *decoder);

/// Decodes the video frame shown at `seconds` (the last frame when the video is shorter), scales it
/// to `width` pixels wide keeping the aspect ratio, and writes it to `jpeg_path` as a JPEG.
int CFFmpeg_thumbnail(const char *video_path, double seconds, int width, const char *jpeg_path);

/// Decodes the picture shown at `seconds` of a video (or an image, with 0) and scales it to exactly
/// `width`×`height` RGB24 pixels into `rgb` (width*height*3 bytes): for drawing in a terminal.
int CFFmpeg_picture_rgb(const char *path, double seconds, int width, int height, uint8_t *rgb);

/// What a probe found in a media file.
struct CFFmpeg_probe_info {
    double duration;        ///< seconds: the longest stream
    int has_audio;
    int has_video;
    char audio_codec[32];
    char video_codec[32];
    int sample_rate;
    int channels;
    int width;
    int height;
    double fps;
    char format[64];        ///< container short name
};

/// Opens a media file and reads its streams' facts. Returns 0 or a negative AVERROR
/// (AVERROR_INVALIDDATA for a file that is not media).
int CFFmpeg_probe(const char *path, CFFmpeg_probe_info *info);

/// A camera's MJPEG frames, decoded with FFmpeg's MJPEG decoder into tightly packed yuv420p of
/// the recording's size (every chroma sampling and picture size a webcam sends).
typedef struct CFFmpeg_camera_jpeg CFFmpeg_camera_jpeg;

/// A decoder whose pictures come out `width`×`height` (those of the camera mode).
int CFFmpeg_camera_jpeg_open(int width, int height, CFFmpeg_camera_jpeg **out);

/// Decodes one JPEG picture of `bytes` bytes in a buffer of `capacity` bytes (the camera's mmap
/// buffer is read in place when it has room for the decoder's padding). `*yuv420p` then points at
/// the picture (valid until the next call). Returns 0, or a negative AVERROR: AVERROR_INVALIDDATA
/// for a picture that does not decode.
int CFFmpeg_camera_jpeg_decode(CFFmpeg_camera_jpeg *decoder, const void *data, size_t bytes, size_t capacity,
                               const uint8_t **yuv420p, int64_t *picture_bytes);

void CFFmpeg_camera_jpeg_free(CFFmpeg_camera_jpeg *decoder);

/// Opens this shim's libraries (the Swift floor calls it before its first call into the shim):
/// 0, or -ENOENT with the line for the user in CFFmpeg_load_message().
int CFFmpeg_load(void);
const char *CFFmpeg_load_message(void);

#endif
