/* SPDX-License-Identifier: GPL-2.0 */
/* Module parameter helper shared by the guest tools: parses "all" or a comma-separated
 * list of names into a bitmask (bit i = names[i]). Returns 0, or -EINVAL after logging
 * the unknown name (or an empty list), or -ENOMEM. */
#ifndef GUEST_TOOLS_NAME_LIST_H
#define GUEST_TOOLS_NAME_LIST_H

#include <linux/bits.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>

static inline int parse_name_list(const char *who, const char *value, const char *const names[],
				  int n, unsigned long *out)
{
	char *buf, *p, *tok;
	int i, ret = 0;

	*out = 0;
	buf = kstrdup(value, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	p = buf;
	while ((tok = strsep(&p, ",")) != NULL) {
		tok = strim(tok);
		if (!*tok)
			continue;
		if (!strcmp(tok, "all")) {
			*out |= BIT(n) - 1;
			continue;
		}
		i = match_string(names, n, tok);
		if (i < 0) {
			pr_err("%s: unknown name '%s' (all", who, tok);
			for (i = 0; i < n; i++)
				pr_cont(", %s", names[i]);
			pr_cont(")\n");
			ret = -EINVAL;
			break;
		}
		*out |= BIT(i);
	}
	kfree(buf);
	if (!ret && !*out)
		ret = -EINVAL;
	return ret;
}

#endif
