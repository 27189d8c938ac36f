// SPDX-License-Identifier: GPL-2.0
/* a program with no site at all, linked with the runtime: an empty report */
int main(void)
{
	return 0;
}
