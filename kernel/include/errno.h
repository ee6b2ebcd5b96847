#ifndef ERRNO_H
#define ERRNO_H
#include "uapi/errno.h"
#endif
