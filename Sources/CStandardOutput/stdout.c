#include "CStandardOutput.h"

#include <errno.h>
#include <stdio.h>

int cravey_stdout_flush(void) {
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
    return errno != 0 ? errno : EIO;
}
