// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test of netlink's port ids, which af_netlink.c keeps in a resizable
 * hash table (struct rhashtable) per protocol.  Thousands of kernel sockets
 * bind to explicit and automatic port ids, so that the table resizes under
 * netlink, and the test checks what a user of netlink sees: a taken id is
 * refused, automatic ids are unique, a message reaches the socket bound to
 * its destination, and a released id can be bound again.
 */
#include <kunit/test.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/sort.h>
#include <linux/uio.h>
#include <net/net_namespace.h>

/* Fewer sockets where every access is instrumented. */
static unsigned int nlp_scale(unsigned int n)
{
	if (IS_ENABLED(CONFIG_KASAN) || IS_ENABLED(CONFIG_KCSAN))
		return max(n / 4, 1U);
	return n;
}

/* Port ids we bind explicitly; autobinding picks others. */
#define NLP_PORT_BASE	0x40000000U

struct nlp_msg {
	u32 magic;
	u32 from;
};

struct nlp_socks {
	struct socket **sock;
	unsigned int n;
};

static void nlp_release_all(void *arg)
{
	struct nlp_socks *socks = arg;
	unsigned int i;

	for (i = 0; i < socks->n; i++) {
		if (socks->sock[i])
			sock_release(socks->sock[i]);
		socks->sock[i] = NULL;
	}
}

static int nlp_create(struct socket **sock)
{
	return sock_create_kern(&init_net, PF_NETLINK, SOCK_RAW,
				NETLINK_USERSOCK, sock);
}

static int nlp_bind(struct socket *sock, u32 portid)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_pid = portid,
	};

	return kernel_bind(sock, (struct sockaddr *)&addr, sizeof(addr));
}

static u32 nlp_portid(struct socket *sock)
{
	struct sockaddr_nl addr = {};

	if (kernel_getsockname(sock, (struct sockaddr *)&addr) < 0)
		return 0;
	return addr.nl_pid;
}

static int nlp_send(struct socket *sock, u32 to, u32 from)
{
	struct nlp_msg payload = { .magic = 0x72687421, .from = from };
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_pid = to };
	struct kvec vec = { .iov_base = &payload, .iov_len = sizeof(payload) };
	struct msghdr msg = {
		.msg_name = &addr,
		.msg_namelen = sizeof(addr),
		.msg_flags = MSG_DONTWAIT,
	};

	return kernel_sendmsg(sock, &msg, &vec, 1, sizeof(payload));
}

/* Receive one message; 0 if it came from port @from and says so. */
static int nlp_receive(struct socket *sock, u32 from)
{
	struct nlp_msg payload = {};
	struct sockaddr_nl addr = {};
	struct kvec vec = { .iov_base = &payload, .iov_len = sizeof(payload) };
	struct msghdr msg = {
		.msg_name = &addr,
		.msg_namelen = sizeof(addr),
	};
	int len;

	len = kernel_recvmsg(sock, &msg, &vec, 1, sizeof(payload),
			     MSG_DONTWAIT);
	if (len < 0)
		return len;
	if (len != sizeof(payload) || payload.magic != 0x72687421 ||
	    payload.from != from || addr.nl_pid != from)
		return -EBADMSG;
	return 0;
}

static int nlp_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static void netlink_port_ids_live_in_a_table(struct kunit *test)
{
	unsigned int nbound = nlp_scale(2048), nauto = nlp_scale(1024);
	unsigned int i, from, to, bad_bind = 0, bad_msg = 0, dups = 0;
	struct nlp_socks *socks;
	struct socket *extra;
	u32 *ports;
	int err;

	socks = kunit_kzalloc(test, sizeof(*socks), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, socks);
	socks->sock = kunit_kcalloc(test, nbound + nauto + 1,
				    sizeof(*socks->sock), GFP_KERNEL);
	ports = kunit_kcalloc(test, nauto, sizeof(*ports), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, socks->sock);
	KUNIT_ASSERT_NOT_NULL(test, ports);
	socks->n = nbound + nauto + 1;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							nlp_release_all,
							socks), 0);

	/* Thousands of port ids: the table grows under netlink. */
	for (i = 0; i < nbound; i++) {
		KUNIT_ASSERT_EQ(test, nlp_create(&socks->sock[i]), 0);
		bad_bind += !!nlp_bind(socks->sock[i], NLP_PORT_BASE + i);
	}
	KUNIT_EXPECT_EQ(test, bad_bind, 0U);

	/* A taken port id is refused; a free one is then accepted. */
	KUNIT_ASSERT_EQ(test, nlp_create(&socks->sock[nbound + nauto]), 0);
	extra = socks->sock[nbound + nauto];
	KUNIT_EXPECT_EQ(test, nlp_bind(extra, NLP_PORT_BASE + 17),
			-EADDRINUSE);
	KUNIT_EXPECT_EQ(test, nlp_bind(extra, NLP_PORT_BASE + nbound),
			0);

	/* Autobound sockets get distinct port ids nobody else has. */
	for (i = 0; i < nauto; i++) {
		struct socket **sock = &socks->sock[nbound + i];

		KUNIT_ASSERT_EQ(test, nlp_create(sock), 0);
		KUNIT_EXPECT_EQ(test, nlp_bind(*sock, 0), 0);
		ports[i] = nlp_portid(*sock);
	}
	sort(ports, nauto, sizeof(*ports), nlp_cmp_u32, NULL);
	for (i = 0; i < nauto; i++) {
		dups += i && ports[i] == ports[i - 1];
		dups += ports[i] >= NLP_PORT_BASE &&
			ports[i] <= NLP_PORT_BASE + nbound;
		dups += !ports[i];
	}
	KUNIT_EXPECT_EQ(test, dups, 0U);

	/* Messages find their port through the table. */
	for (i = 0; i < nbound; i += 7) {
		from = i;
		to = (i * 13 + 5) % nbound;
		if (to == from)
			continue;
		err = nlp_send(socks->sock[from], NLP_PORT_BASE + to,
			       NLP_PORT_BASE + from);
		if (err != sizeof(struct nlp_msg) ||
		    nlp_receive(socks->sock[to], NLP_PORT_BASE + from))
			bad_msg++;
	}
	for (i = 0; i < nauto; i += 5) {
		struct socket *sock = socks->sock[nbound + i];
		u32 port = nlp_portid(sock);

		err = nlp_send(sock, NLP_PORT_BASE + i % nbound, port);
		if (err != sizeof(struct nlp_msg) ||
		    nlp_receive(socks->sock[i % nbound], port))
			bad_msg++;
	}
	KUNIT_EXPECT_EQ(test, bad_msg, 0U);

	/* A released port id is gone from the table. */
	sock_release(socks->sock[3]);
	socks->sock[3] = NULL;
	KUNIT_EXPECT_EQ(test, nlp_send(socks->sock[4], NLP_PORT_BASE + 3,
				       NLP_PORT_BASE + 4), -ECONNREFUSED);
	KUNIT_ASSERT_EQ(test, nlp_create(&socks->sock[3]), 0);
	KUNIT_EXPECT_EQ(test, nlp_bind(socks->sock[3], NLP_PORT_BASE + 3),
			0);

	nlp_release_all(socks);
}

static struct kunit_case netlink_portid_test_cases[] = {
	KUNIT_CASE_SLOW(netlink_port_ids_live_in_a_table),
	{}
};

static struct kunit_suite netlink_portid_test_suite = {
	.name = "netlink_portid",
	.test_cases = netlink_portid_test_cases,
};

kunit_test_suite(netlink_portid_test_suite);

MODULE_DESCRIPTION("KUnit test of netlink port ids");
MODULE_LICENSE("GPL");
