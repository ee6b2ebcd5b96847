/*
 * Power-off and reset through ACPI (power.c).  power_init reads the FADT
 * and the DSDT's \_S5 once (after the ACPI tables are found); power_off and
 * power_reset return only if the machine ignored them.
 */
#ifndef POWER_H
#define POWER_H

#include "acpi.h"

void power_init(void);
void power_off(void);
void power_reset(void);
/* The FADT as read at boot, NULL if there is none (timer.c: PM timer). */
const struct acpi_fadt *power_fadt(void);

#endif
