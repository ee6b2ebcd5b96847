/*
 * kvsnprintf: the kernel's formatter (see include/printf.h).  Pure; the
 * host tests compare it with the C library's snprintf.
 */
#include "kernel.h"
#include "printf.h"

struct out {
    char *buf;
    size_t size, len;
};

static void put(struct out *o, char c)
{
    if (o->len + 1 < o->size)
        o->buf[o->len] = c;
    o->len++;
}

static void pad(struct out *o, char c, int n)
{
    while (n-- > 0)
        put(o, c);
}

struct spec {
    bool left, zero, plus, space, alt;
    int width, prec;            /* prec < 0: none */
    int len;                    /* 0 int, 1 long, 2 long long, -1 short, -2 char */
};

static void put_str(struct out *o, const struct spec *sp, const char *s)
{
    int n = 0;

    if (!s)
        s = "(null)";
    while (s[n] && (sp->prec < 0 || n < sp->prec))
        n++;
    if (!sp->left)
        pad(o, ' ', sp->width - n);
    for (int i = 0; i < n; i++)
        put(o, s[i]);
    if (sp->left)
        pad(o, ' ', sp->width - n);
}

static void put_num(struct out *o, const struct spec *sp, uint64_t v,
                    bool neg, unsigned base, bool upper)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char tmp[24];
    int n = 0, zeros, total;
    const char *prefix = "";

    do {
        tmp[n++] = digits[v % base];
        v /= base;
    } while (v);
    if (sp->prec == 0 && n == 1 && tmp[0] == '0')
        n = 0;                  /* "%.0d" of 0 prints nothing */
    if (neg)
        prefix = "-";
    else if (sp->plus && base == 10)
        prefix = "+";
    else if (sp->space && base == 10)
        prefix = " ";
    else if (sp->alt && base == 16 && !(n == 1 && tmp[0] == '0') && n)
        prefix = upper ? "0X" : "0x";
    else if (sp->alt && base == 8 && !(n && tmp[n - 1] == '0'))
        prefix = "0";
    zeros = sp->prec > n ? sp->prec - n : 0;
    total = (int)__builtin_strlen(prefix) + zeros + n;
    if (sp->zero && !sp->left && sp->prec < 0)
        zeros += sp->width > total ? sp->width - total : 0;
    else if (!sp->left)
        pad(o, ' ', sp->width - total);
    for (const char *p = prefix; *p; p++)
        put(o, *p);
    pad(o, '0', zeros);
    while (n)
        put(o, tmp[--n]);
    if (sp->left)
        pad(o, ' ', sp->width - total);
}

static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
    *sp = (struct spec){ .prec = -1 };
    for (;; f++) {
        if (*f == '-') sp->left = true;
        else if (*f == '0') sp->zero = true;
        else if (*f == '+') sp->plus = true;
        else if (*f == ' ') sp->space = true;
        else if (*f == '#') sp->alt = true;
        else break;
    }
    if (*f == '*') {
        sp->width = va_arg(*ap, int);
        if (sp->width < 0) {
            sp->left = true;
            sp->width = -sp->width;
        }
        f++;
    }
    while (*f >= '0' && *f <= '9')
        sp->width = sp->width * 10 + (*f++ - '0');
    if (*f == '.') {
        f++;
        sp->prec = 0;
        if (*f == '*') {
            sp->prec = va_arg(*ap, int);
            f++;
        }
        while (*f >= '0' && *f <= '9')
            sp->prec = sp->prec * 10 + (*f++ - '0');
    }
    for (;; f++) {
        if (*f == 'l') sp->len = sp->len == 1 ? 2 : 1;
        else if (*f == 'h') sp->len = sp->len == -1 ? -2 : -1;
        else if (*f == 'z') sp->len = 1;
        else break;
    }
    return f;
}

static uint64_t arg_unsigned(const struct spec *sp, va_list *ap)
{
    switch (sp->len) {
    case 2: return va_arg(*ap, unsigned long long);
    case 1: return va_arg(*ap, unsigned long);
    case -1: return (unsigned short)va_arg(*ap, unsigned int);
    case -2: return (unsigned char)va_arg(*ap, unsigned int);
    default: return va_arg(*ap, unsigned int);
    }
}

static int64_t arg_signed(const struct spec *sp, va_list *ap)
{
    switch (sp->len) {
    case 2: return va_arg(*ap, long long);
    case 1: return va_arg(*ap, long);
    case -1: return (short)va_arg(*ap, int);
    case -2: return (signed char)va_arg(*ap, int);
    default: return va_arg(*ap, int);
    }
}

static void convert(struct out *o, struct spec *sp, char c, va_list *ap)
{
    int64_t s;
    char ch[2] = { 0, 0 };

    switch (c) {
    case 'd': case 'i':
        s = arg_signed(sp, ap);
        put_num(o, sp, s < 0 ? -(uint64_t)s : (uint64_t)s, s < 0, 10, false);
        break;
    case 'u': put_num(o, sp, arg_unsigned(sp, ap), false, 10, false); break;
    case 'x': put_num(o, sp, arg_unsigned(sp, ap), false, 16, false); break;
    case 'X': put_num(o, sp, arg_unsigned(sp, ap), false, 16, true); break;
    case 'o': put_num(o, sp, arg_unsigned(sp, ap), false, 8, false); break;
    case 'p':
        sp->alt = true;
        put_num(o, sp, (uintptr_t)va_arg(*ap, void *), false, 16, false);
        break;
    case 's': put_str(o, sp, va_arg(*ap, const char *)); break;
    case 'c':
        ch[0] = (char)va_arg(*ap, int);
        sp->prec = 1;
        if (ch[0] == 0) {       /* a NUL char still counts as output */
            if (!sp->left) pad(o, ' ', sp->width - 1);
            put(o, 0);
            if (sp->left) pad(o, ' ', sp->width - 1);
        } else {
            put_str(o, sp, ch);
        }
        break;
    case '%': put(o, '%'); break;
    default:                    /* unknown: print it, so the bug shows */
        put(o, '%');
        if (c) put(o, c);
    }
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct out o = { buf, size, 0 };
    struct spec sp;
    va_list aq;

    va_copy(aq, ap);
    for (const char *f = fmt; *f; f++) {
        if (*f != '%') {
            put(&o, *f);
            continue;
        }
        f = parse_spec(f + 1, &sp, &aq);
        convert(&o, &sp, *f, &aq);
        if (!*f)
            break;
    }
    va_end(aq);
    if (size)
        buf[o.len < size ? o.len : size - 1] = 0;
    return (int)o.len;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = kvsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}
