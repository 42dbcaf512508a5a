/* SPDX-License-Identifier: GPL-2.0 */
/* Nothing to generate: tracepoints are compiled out (linux/tracepoint.h). */
#undef CREATE_TRACE_POINTS
