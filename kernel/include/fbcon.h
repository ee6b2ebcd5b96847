/*
 * Framebuffer console (fbcon.c): text on the loader's linear framebuffer,
 * 8x16 glyphs.  console.c calls it beside the UART when console=fb or
 * console=serial,fb.
 */
#ifndef FBCON_H
#define FBCON_H

#include <stdbool.h>
#include <stddef.h>
#include "bootinfo.h"

#define FBCON_GLYPH_W   8
#define FBCON_GLYPH_H   16

/* Take the framebuffer (after paging_init: it is reached through the
   PHYSMAP) and clear it.  0, or -1 with *why set. */
int fbcon_init(const struct bootinfo_fb *fb, const char **why);
bool fbcon_active(void);
void fbcon_write(const char *s, size_t n);
/* For tests: the character drawn at a cell, read back from its pixels;
   the cursor and the screen's size in characters. */
char fbcon_read_char(unsigned col, unsigned row);
void fbcon_where(unsigned *col, unsigned *row, unsigned *cols,
                 unsigned *rows);

#endif
