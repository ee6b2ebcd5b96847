/*
 * The framebuffer console: the kernel log drawn as text on the linear
 * framebuffer the boot loader set up (multiboot2 framebuffer tag: VBE
 * under BIOS, GOP under UEFI), for machines with no serial port.
 * console=fb or console=serial,fb on the command line turns it on.
 *
 * The glyphs are GRUB's 8x16 ASCII font (Unifont), the C header Debian's
 * grub-common ships, copied into the build (kernel/kernel.mk).  Lines
 * wrap from the bottom back to the top instead of scrolling (a scroll
 * rewrites the whole framebuffer, slow on uncached video memory); the
 * line after the newest is kept blank so the newest is easy to find.
 */
#include "kernel.h"
#include "bootinfo.h"
#include "fbcon.h"
#include "lib.h"
#include "memlayout.h"
#include "paging.h"
#include "font8x16.h"           /* build/k: ascii_bitmaps[128 * 16] */

_Static_assert(sizeof(ascii_bitmaps) == 128 * FBCON_GLYPH_H,
               "GRUB's ascii.h: 128 glyphs of 16 rows");

#define FG_RGB  0xC0C0C0        /* light grey on black, as a PC console */

static struct {
    uint8_t *base;
    struct bootinfo_fb fb;
    uint32_t fg;                /* FG_RGB in the framebuffer's format */
    unsigned cols, rows, x, y;
} con;

/* 8-bit channel c to a field of `size` bits at `pos`. */
static uint32_t channel(uint32_t c, uint8_t pos, uint8_t size)
{
    return size > 8 ? c << (pos + size - 8) : (c >> (8 - size)) << pos;
}

static uint32_t pixel_of(uint32_t rgb)
{
    const struct bootinfo_fb *f = &con.fb;

    return channel(rgb >> 16 & 0xFF, f->red_pos, f->red_size) |
           channel(rgb >> 8 & 0xFF, f->green_pos, f->green_size) |
           channel(rgb & 0xFF, f->blue_pos, f->blue_size);
}

static void put_pixel(uint8_t *p, uint32_t v)
{
    switch (con.fb.bpp) {
    case 32:
        *(volatile uint32_t *)p = v;
        break;
    case 24:
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)(v >> 8);
        p[2] = (uint8_t)(v >> 16);
        break;
    default:                    /* 15 and 16 */
        *(volatile uint16_t *)p = (uint16_t)v;
    }
}

static void draw_glyph(unsigned col, unsigned row, unsigned char c)
{
    const uint8_t *g = &ascii_bitmaps[(c & 0x7F) * FBCON_GLYPH_H];
    unsigned bytes = (con.fb.bpp + 7) / 8;

    for (unsigned y = 0; y < FBCON_GLYPH_H; y++) {
        uint8_t *p = con.base + (uint64_t)(row * FBCON_GLYPH_H + y) *
                     con.fb.pitch + (uint64_t)col * FBCON_GLYPH_W * bytes;
        for (unsigned x = 0; x < FBCON_GLYPH_W; x++, p += bytes)
            put_pixel(p, (g[y] & (0x80 >> x)) ? con.fg : 0);
    }
}

static void clear_row(unsigned row)
{
    for (unsigned y = 0; y < FBCON_GLYPH_H; y++)
        memset(con.base + (uint64_t)(row * FBCON_GLYPH_H + y) * con.fb.pitch,
               0, (uint64_t)con.fb.width * ((con.fb.bpp + 7) / 8));
}

static void newline(void)
{
    con.x = 0;
    con.y = (con.y + 1) % con.rows;
    clear_row(con.y);
    clear_row((con.y + 1) % con.rows);
}

int fbcon_init(const struct bootinfo_fb *fb, const char **why)
{
    uint64_t len = (uint64_t)fb->pitch * fb->height;

    if (!fb->addr) {
        *why = "the boot loader set up no RGB framebuffer (boot through "
               "GRUB multiboot2; QEMU -kernel gives none)";
        return -1;
    }
    if ((fb->bpp != 32 && fb->bpp != 24 && fb->bpp != 16 && fb->bpp != 15) ||
        fb->width < FBCON_GLYPH_W * 20 || fb->height < FBCON_GLYPH_H * 4 ||
        fb->pitch < fb->width * ((fb->bpp + 7) / 8)) {
        *why = "the framebuffer's format is not one the console draws";
        return -1;
    }
    if (fb->addr + len > paging_physmap_top() &&
        paging_map_mmio(fb->addr, len) < 0) {
        *why = "the framebuffer lies beyond what the kernel can map";
        return -1;
    }
    con.fb = *fb;
    con.base = phys_to_virt(fb->addr);
    con.fg = pixel_of(FG_RGB);
    con.cols = fb->width / FBCON_GLYPH_W;
    con.rows = fb->height / FBCON_GLYPH_H;
    con.x = con.y = 0;
    for (unsigned r = 0; r < con.rows; r++)
        clear_row(r);
    return 0;
}

bool fbcon_active(void)
{
    return con.base != NULL;
}

void fbcon_write(const char *s, size_t n)
{
    if (!con.base)
        return;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n') {
            newline();
            continue;
        }
        if (s[i] == '\r')
            continue;
        if (con.x == con.cols)
            newline();
        draw_glyph(con.x++, con.y, (unsigned char)s[i]);
    }
}

/* Read the text at (col, row) back from the pixels: the character whose
   glyph matches exactly, '?' if none does.  For the KTEST that checks
   what reached the screen. */
char fbcon_read_char(unsigned col, unsigned row)
{
    unsigned bytes = (con.fb.bpp + 7) / 8;
    uint8_t rows[FBCON_GLYPH_H];

    for (unsigned y = 0; y < FBCON_GLYPH_H; y++) {
        const uint8_t *p = con.base + (uint64_t)(row * FBCON_GLYPH_H + y) *
                           con.fb.pitch + (uint64_t)col * FBCON_GLYPH_W * bytes;
        rows[y] = 0;
        for (unsigned x = 0; x < FBCON_GLYPH_W; x++, p += bytes) {
            uint32_t v = 0;
            memcpy(&v, p, bytes);
            if (v)
                rows[y] |= 0x80 >> x;
        }
    }
    for (int c = ' '; c < 127; c++)
        if (!memcmp(rows, &ascii_bitmaps[c * FBCON_GLYPH_H], FBCON_GLYPH_H))
            return (char)c;
    return '?';
}

void fbcon_where(unsigned *col, unsigned *row, unsigned *cols, unsigned *rows)
{
    *col = con.x;
    *row = con.y;
    *cols = con.cols;
    *rows = con.rows;
}
