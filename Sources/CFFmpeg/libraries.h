// The FFmpeg functions this shim calls, resolved on first use (see CLoader.h: the executable
// does not link FFmpeg, so a call to a function missing from this list does not link).
// Include it after the libraries' headers and before any call: each name below becomes a call
// through the table, which opens the libraries the first time.
#ifndef CFFMPEG_LIBRARIES_H
#define CFFMPEG_LIBRARIES_H

#include <CLoader.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/imgutils.h>
#include <libavutil/macros.h>
#include <libavutil/opt.h>
#include <libavutil/time.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

#define CFFMPEG_FUNCTIONS(X) \
    X(av_audio_fifo_alloc) \
    X(av_audio_fifo_free) \
    X(av_audio_fifo_read) \
    X(av_audio_fifo_size) \
    X(av_audio_fifo_write) \
    X(av_calloc) \
    X(av_channel_layout_copy) \
    X(av_channel_layout_default) \
    X(av_dict_free) \
    X(av_dict_get) \
    X(av_dict_set) \
    X(av_find_best_stream) \
    X(av_frame_alloc) \
    X(av_frame_free) \
    X(av_frame_get_buffer) \
    X(av_frame_make_writable) \
    X(av_frame_move_ref) \
    X(av_frame_unref) \
    X(av_free) \
    X(av_gettime_relative) \
    X(av_image_fill_arrays) \
    X(av_image_get_buffer_size) \
    X(av_interleaved_write_frame) \
    X(av_log_set_level) \
    X(av_malloc) \
    X(av_malloc_array) \
    X(av_mallocz) \
    X(av_packet_alloc) \
    X(av_packet_free) \
    X(av_packet_move_ref) \
    X(av_packet_rescale_ts) \
    X(av_packet_unref) \
    X(av_read_frame) \
    X(av_rescale_q) \
    X(av_seek_frame) \
    X(av_strerror) \
    X(av_write_trailer) \
    X(avcodec_alloc_context3) \
    X(avcodec_find_decoder) \
    X(avcodec_find_encoder) \
    X(avcodec_find_encoder_by_name) \
    X(avcodec_flush_buffers) \
    X(avcodec_free_context) \
    X(avcodec_get_name) \
    X(avcodec_open2) \
    X(avcodec_parameters_copy) \
    X(avcodec_parameters_from_context) \
    X(avcodec_parameters_to_context) \
    X(avcodec_receive_frame) \
    X(avcodec_receive_packet) \
    X(avcodec_send_frame) \
    X(avcodec_send_packet) \
    X(avformat_alloc_context) \
    X(avformat_alloc_output_context2) \
    X(avformat_close_input) \
    X(avformat_find_stream_info) \
    X(avformat_free_context) \
    X(avformat_new_stream) \
    X(avformat_open_input) \
    X(avformat_seek_file) \
    X(avformat_write_header) \
    X(avio_closep) \
    X(avio_flush) \
    X(avio_open2) \
    X(swr_alloc_set_opts2) \
    X(swr_convert) \
    X(swr_free) \
    X(swr_get_out_samples) \
    X(swr_init) \
    X(swr_set_matrix) \
    X(sws_freeContext) \
    X(sws_getCachedContext) \
    X(sws_getContext) \
    X(sws_scale)

CLOADER_DECLARE(CFFmpeg, CFFMPEG_FUNCTIONS)

#define av_audio_fifo_alloc CLOADER_CALL(CFFmpeg, av_audio_fifo_alloc)
#define av_audio_fifo_free CLOADER_CALL(CFFmpeg, av_audio_fifo_free)
#define av_audio_fifo_read CLOADER_CALL(CFFmpeg, av_audio_fifo_read)
#define av_audio_fifo_size CLOADER_CALL(CFFmpeg, av_audio_fifo_size)
#define av_audio_fifo_write CLOADER_CALL(CFFmpeg, av_audio_fifo_write)
#define av_calloc CLOADER_CALL(CFFmpeg, av_calloc)
#define av_channel_layout_copy CLOADER_CALL(CFFmpeg, av_channel_layout_copy)
#define av_channel_layout_default CLOADER_CALL(CFFmpeg, av_channel_layout_default)
#define av_dict_free CLOADER_CALL(CFFmpeg, av_dict_free)
#define av_dict_get CLOADER_CALL(CFFmpeg, av_dict_get)
#define av_dict_set CLOADER_CALL(CFFmpeg, av_dict_set)
#define av_find_best_stream CLOADER_CALL(CFFmpeg, av_find_best_stream)
#define av_frame_alloc CLOADER_CALL(CFFmpeg, av_frame_alloc)
#define av_frame_free CLOADER_CALL(CFFmpeg, av_frame_free)
#define av_frame_get_buffer CLOADER_CALL(CFFmpeg, av_frame_get_buffer)
#define av_frame_make_writable CLOADER_CALL(CFFmpeg, av_frame_make_writable)
#define av_frame_move_ref CLOADER_CALL(CFFmpeg, av_frame_move_ref)
#define av_frame_unref CLOADER_CALL(CFFmpeg, av_frame_unref)
#define av_free CLOADER_CALL(CFFmpeg, av_free)
#define av_gettime_relative CLOADER_CALL(CFFmpeg, av_gettime_relative)
#define av_image_fill_arrays CLOADER_CALL(CFFmpeg, av_image_fill_arrays)
#define av_image_get_buffer_size CLOADER_CALL(CFFmpeg, av_image_get_buffer_size)
#define av_interleaved_write_frame CLOADER_CALL(CFFmpeg, av_interleaved_write_frame)
#define av_log_set_level CLOADER_CALL(CFFmpeg, av_log_set_level)
#define av_malloc CLOADER_CALL(CFFmpeg, av_malloc)
#define av_malloc_array CLOADER_CALL(CFFmpeg, av_malloc_array)
#define av_mallocz CLOADER_CALL(CFFmpeg, av_mallocz)
#define av_packet_alloc CLOADER_CALL(CFFmpeg, av_packet_alloc)
#define av_packet_free CLOADER_CALL(CFFmpeg, av_packet_free)
#define av_packet_move_ref CLOADER_CALL(CFFmpeg, av_packet_move_ref)
#define av_packet_rescale_ts CLOADER_CALL(CFFmpeg, av_packet_rescale_ts)
#define av_packet_unref CLOADER_CALL(CFFmpeg, av_packet_unref)
#define av_read_frame CLOADER_CALL(CFFmpeg, av_read_frame)
#define av_rescale_q CLOADER_CALL(CFFmpeg, av_rescale_q)
#define av_seek_frame CLOADER_CALL(CFFmpeg, av_seek_frame)
#define av_strerror CLOADER_CALL(CFFmpeg, av_strerror)
#define av_write_trailer CLOADER_CALL(CFFmpeg, av_write_trailer)
#define avcodec_alloc_context3 CLOADER_CALL(CFFmpeg, avcodec_alloc_context3)
#define avcodec_find_decoder CLOADER_CALL(CFFmpeg, avcodec_find_decoder)
#define avcodec_find_encoder CLOADER_CALL(CFFmpeg, avcodec_find_encoder)
#define avcodec_find_encoder_by_name CLOADER_CALL(CFFmpeg, avcodec_find_encoder_by_name)
#define avcodec_flush_buffers CLOADER_CALL(CFFmpeg, avcodec_flush_buffers)
#define avcodec_free_context CLOADER_CALL(CFFmpeg, avcodec_free_context)
#define avcodec_get_name CLOADER_CALL(CFFmpeg, avcodec_get_name)
#define avcodec_open2 CLOADER_CALL(CFFmpeg, avcodec_open2)
#define avcodec_parameters_copy CLOADER_CALL(CFFmpeg, avcodec_parameters_copy)
#define avcodec_parameters_from_context CLOADER_CALL(CFFmpeg, avcodec_parameters_from_context)
#define avcodec_parameters_to_context CLOADER_CALL(CFFmpeg, avcodec_parameters_to_context)
#define avcodec_receive_frame CLOADER_CALL(CFFmpeg, avcodec_receive_frame)
#define avcodec_receive_packet CLOADER_CALL(CFFmpeg, avcodec_receive_packet)
#define avcodec_send_frame CLOADER_CALL(CFFmpeg, avcodec_send_frame)
#define avcodec_send_packet CLOADER_CALL(CFFmpeg, avcodec_send_packet)
#define avformat_alloc_context CLOADER_CALL(CFFmpeg, avformat_alloc_context)
#define avformat_alloc_output_context2 CLOADER_CALL(CFFmpeg, avformat_alloc_output_context2)
#define avformat_close_input CLOADER_CALL(CFFmpeg, avformat_close_input)
#define avformat_find_stream_info CLOADER_CALL(CFFmpeg, avformat_find_stream_info)
#define avformat_free_context CLOADER_CALL(CFFmpeg, avformat_free_context)
#define avformat_new_stream CLOADER_CALL(CFFmpeg, avformat_new_stream)
#define avformat_open_input CLOADER_CALL(CFFmpeg, avformat_open_input)
#define avformat_seek_file CLOADER_CALL(CFFmpeg, avformat_seek_file)
#define avformat_write_header CLOADER_CALL(CFFmpeg, avformat_write_header)
#define avio_closep CLOADER_CALL(CFFmpeg, avio_closep)
#define avio_flush CLOADER_CALL(CFFmpeg, avio_flush)
#define avio_open2 CLOADER_CALL(CFFmpeg, avio_open2)
#define swr_alloc_set_opts2 CLOADER_CALL(CFFmpeg, swr_alloc_set_opts2)
#define swr_convert CLOADER_CALL(CFFmpeg, swr_convert)
#define swr_free CLOADER_CALL(CFFmpeg, swr_free)
#define swr_get_out_samples CLOADER_CALL(CFFmpeg, swr_get_out_samples)
#define swr_init CLOADER_CALL(CFFmpeg, swr_init)
#define swr_set_matrix CLOADER_CALL(CFFmpeg, swr_set_matrix)
#define sws_freeContext CLOADER_CALL(CFFmpeg, sws_freeContext)
#define sws_getCachedContext CLOADER_CALL(CFFmpeg, sws_getCachedContext)
#define sws_getContext CLOADER_CALL(CFFmpeg, sws_getContext)
#define sws_scale CLOADER_CALL(CFFmpeg, sws_scale)

#endif
