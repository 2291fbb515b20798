#ifndef C_STANDARD_OUTPUT_H
#define C_STANDARD_OUTPUT_H

/// Standard output's stdio stream, which Swift's `print` writes through: what it holds is written
/// out, and the answer is 0 when every write to it went through, else why one failed (an errno;
/// EIO when the stream kept no number).
int cravey_stdout_flush(void);

#endif
