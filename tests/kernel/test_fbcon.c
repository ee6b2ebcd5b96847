/*
 * The framebuffer console, read back from its pixels: what console= asked
 * for is what the screen shows.  Under QEMU -kernel there is no
 * framebuffer; the ISOs ask for console=serial,fb (boot/boot.mk).
 */
#include "kernel.h"
#include "cmdline.h"
#include "console.h"
#include "fbcon.h"
#include "ktest.h"
#include "lib.h"

static bool fb_asked(void)
{
    const char *c = cmdline_get(&kernel_cmdline, "console");

    return c && (!strcmp(c, "fb") || !strcmp(c, "serial,fb") ||
                 !strcmp(c, "fb,serial"));
}

/* A line through kprintf (as every log line goes), then its cells read
   back: each must hold the glyph of its character. */
KTEST(fbcon, line_reads_back)
{
    static const char line[] = "fbcon: read back 0123456789 ~!@#$%^&*()_+ "
                               "ABCXYZ abcxyz";
    unsigned col, row, cols, rows;
    char got[sizeof(line)];

    if (!fb_asked()) {
        KEXPECT(!fbcon_active());       /* never without being asked */
        return;
    }
    KEXPECT(fbcon_active());
    if (!fbcon_active())
        return;
    kprintf("%s\n", line);
    fbcon_where(&col, &row, &cols, &rows);
    KEXPECT_EQ(col, 0);
    KEXPECT(cols >= sizeof(line));
    row = (row + rows - 1) % rows;      /* the line just written */
    for (unsigned i = 0; i < sizeof(line) - 1; i++)
        got[i] = fbcon_read_char(i, row);
    got[sizeof(line) - 1] = 0;
    KEXPECT(!strcmp(got, line));
    KEXPECT_EQ(fbcon_read_char(0, (row + 1) % rows), ' ');  /* kept blank */
}
