/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rhashtable.pml - Promela model of the relativistic rhashtable's reader
 * protocol: nulls markers unique per (array, bucket), per-stripe sequence
 * counters, and the three resizes (unzip, zip, move).  See README.
 *
 * Processes
 *   reader   one lookup of the key K of the stable object S in one RCU
 *            read-side section; every shared load is a step of its own.
 *            Property: the lookup finds S (a miss fails an assertion), and
 *            what it finds has key K at the comparison (only S ever has K).
 *            With ABSENT it looks up a key nobody has; spin's
 *            non-progress check (-DNP, pan -l -f) then shows that no lookup
 *            retries forever.
 *   updater  MOVES times: take a mover (an object other than S) out of its
 *            table, give it another key (any but S's) and insert it into
 *            table 1 or, with TABLE2, table 2.  An update holds its bucket
 *            locks, which exclude the worker on the same buckets; each of
 *            its pointer stores is a step of its own (ATOMIC_UPDATES makes
 *            every remove and every insert a single step instead).
 *   worker   the resize of the scenario, step by step as in
 *            lib/rhashtable.c; its grace periods wait for the reader.
 *   walker   (WALKER, instead of the reader) rhashtable_walk_next() over
 *            the bucket of S, or with WALK_ALL over every bucket of the
 *            array, in one read-side section: see walker().
 *   init     builds the scenario, runs the three and, once they are done,
 *            checks that every chain is well formed and holds its objects.
 *
 * Scenario (one of): SCEN_GROW (2 -> 4), SCEN_SHRINK (4 -> 2), SCEN_REHASH
 * (2 -> 2, other seed), SCEN_REHASH_GROW (2 -> 4, other seed), SCEN_CROSS
 * (no resize; moves to and from a second table of the same size),
 * SCEN_GROW_SHRINK (2 -> 4 -> 2).
 *
 * Protocol as specified, unless:
 *   PREP_FLUSH      fix 1: after switching to GROW_UNZIP, take and drop
 *                   every pair's lock, then wait for a grace period, before
 *                   the first unzip pass.
 *   PREP_RM_BUMP    fix 1, other way: a GROW_PREP remove bumps the pair's
 *                   stripe (in T and U) after its stores.
 *   ZIP_PAIR_BUMP   fix 2: the halving bump is done in the zip itself
 *                   (rht_zip_pair()), so an updater's re-zip bumps too.
 * Broken variants: OLD_RULE (markers fit by index bits, generation and
 * shift; no seq check), NO_SEQ, NO_UNZIP_GP, NO_ZIP_BUMP, and for the
 * liveness check NO_SHARED_FIT (only a bucket's own marker ends a walk).
 *
 * Walker rules (each off unless defined; lib/rhashtable.c has the first
 * two, MOVE_BUMP_EACH, WALK_FOREIGN_ALWAYS and REHASH_SETTLE):
 *   WALK_OBJ_CHECK  the walk checks its stripe before it returns an object
 *                   (rht_walk_moved()), not only at the marker.
 *   WALK_RM_BUMP    every remove bumps the object's stripe (T and U) once
 *                   its locks are dropped (rht_unlinked(), rht_dom_bump()).
 *   MOVE_BUMP       a rehash bumps T's stripe of a bucket once, before
 *                   moving its first object (rht_move_bucket()).
 * and the fixes the walker runs call for:
 *   RM_BUMP_LOCKED  the remove's bump is made before the locks are dropped.
 *   WALK_FOREIGN_ALWAYS  (other way) the walk tests every object's bucket,
 *                   not only while a resize runs.
 *   MOVE_BUMP_EACH  the rehash bumps before every move, not once a bucket.
 *   REHASH_SETTLE   after publishing, the rehash waits for a grace period
 *                   before updates leave T out (phase NONE).
 * WALK_STRICT adds to the walk's contract that what it returns is still in
 * its bucket and not in table 2 at that moment; WALK_ALL walks the whole
 * array instead of S's bucket alone.
 */

#ifndef MOVES
#define MOVES	2
#endif

/* ---- objects and pointer values --------------------------------------- */
#define NOBJ	4		/* objects 1..NOBJ */
#define S	1		/* the stable object: never moved */
#define KS	0		/* its key: no other object ever gets it */
#ifdef ABSENT
#define K	8		/* the reader looks up a key nobody has */
#else
#define K	KS		/* the reader looks up S */
#endif
#define MK	8		/* 0: empty, 1..NOBJ: objects, MK..: markers */
#define MARK(a, b)	(MK + (a) * 4 + (b))	/* unique per (array, bucket) */
#define IS_OBJ(p)	((p) != 0 && (p) < MK)
#define IS_MARK(p)	((p) >= MK)
#define MARR(m)		(((m) - MK) / 4)
#define MBKT(m)		(((m) - MK) % 4)

/* ---- arrays: 0..2 are table 1's, T2 is table 2's only one ------------- */
#define NARR	4
#define T2	3
#define NOARR	255
#define SIZE(a)		(1 << shift[a])
/* seed 0: k & mask; seed 1 (a rehash): (k + 1) & mask */
#define HASH(a, k)	(((k) + seed[a]) & (SIZE(a) - 1))
/* stripe of bucket b: b & smask, smask = min(16, size / 2) - 1 */
#define STRIPE(a, b)	((a) * 2 + ((b) & (SIZE(a) / 2 - 1)))
#define HEAD(a, b)	head[(a) * 4 + (b)]
#define FIRST(a, b)	(HEAD(a, b) != 0 -> HEAD(a, b) : MARK(a, b))
#define HEADVAL(p)	(IS_OBJ(p) -> (p) : 0)	/* a bucket stores no marker */
#define LBIT(a, b)	(1 << ((a) * 4 + (b)))

#define K_INIT		0	/* kind of an array */
#define K_GROW		1
#define K_SHRINK	2
#define K_REHASH	3

#define PH_NONE		0	/* phase of the running resize */
#define PH_GROW_PREP	1
#define PH_GROW_UNZIP	2
#define PH_SHRINK_PREP	3
#define PH_REHASH	4

byte key[NOBJ + 1];
byte nxt[NOBJ + 1];
byte where[NOBJ + 1];		/* 0: out, 1: table 1, 2: table 2 */
byte head[NARR * 4];
byte seq[NARR * 2];		/* arrays here have at most two stripes */
byte shift[NARR];
byte seed[NARR];
byte gen[NARR];			/* only the old marker rule reads it */
byte kind[NARR];
byte past[NARR];		/* array + 1; 0 is NULL */
byte future[NARR];
byte cur;			/* table 1's ht->tbl */
byte phase = PH_NONE;		/* of table 1's running resize */
byte rsT = NOARR, rsU = NOARR;	/* its old and new array */
int lockbits;			/* bucket locks held: LBIT(array, bucket) */
bit rcu;			/* the reader is in its read-side section */
#ifdef WALKER
/* Ghosts: the walker's bucket, what was in it at some time in the epoch */
byte wtbl = NOARR, wslot, wseen;
#define IN_WALK(o)	(where[o] == 1 && HASH(wtbl, key[o]) == wslot)
#endif

/* A grace period: the (single, single-lookup) reader is not inside. */
#define GP	atomic { rcu == 0 -> printf("P%d: grace period\n", _pid) }

/*
 * Trace lines, printed only when a trail is replayed (spin -t): "#N" is a
 * pointer value and "P<pid>:" a process; run.sh renders both.
 */
#define TR_N(p, v)	printf("P%d: nxt[#%d] = #%d\n", _pid, p, v)
#define TR_H(a, b, v)	printf("P%d: head A%d[%d] = #%d\n", _pid, a, b, v)

/* Old rule: same generation, index equal on the bits both arrays have. */
#define MIN(a, b)	((a) < (b) -> (a) : (b))
#define OLDFIT(m, t, i)	(gen[MARR(m)] == gen[t] && \
	(((MBKT(m) ^ (i)) & ((1 << MIN(shift[MARR(m)], shift[t])) - 1)) == 0))

/* New rule's shared_fit(), given past and future (+1) of the array t. */
#ifdef NO_SHARED_FIT
#define SHARED_FIT(m, t, i, pa, fu)	false
#else
#define SHARED_FIT(m, t, i, pa, fu) \
	((pa != 0 && kind[t] == K_GROW && \
	  m == MARK(pa - 1, (i) & (SIZE(pa - 1) - 1))) || \
	 (fu != 0 && kind[fu - 1] == K_SHRINK && \
	  m == MARK(fu - 1, (i) & (SIZE(fu - 1) - 1))))
#endif

/* ======================================================================= */
/* The reader: __rhashtable_lookup() with the new END test                 */
/* ======================================================================= */
proctype reader()
{
	byte tbl, idx, p, m, s0, pa, fu;

	d_step {				/* rcu_read_lock(); ht->tbl */
		rcu = 1; tbl = cur;
		printf("P%d: rcu_read_lock, tbl = A%d\n", _pid, tbl)
	}
lookup:
	idx = HASH(tbl, K);
retry:
	s0 = seq[STRIPE(tbl, idx)];
	d_step {
		p = HEAD(tbl, idx);
		printf("P%d: walk A%d[%d] (s0 = %d), head -> #%d\n",
		       _pid, tbl, idx, s0, p)
	}
	if
	:: p == 0 -> m = MARK(tbl, idx); goto check	/* empty bucket */
	:: else
	fi;
	do
	:: IS_OBJ(p) ->
		if
		:: key[p] == K -> goto found
		:: else
		fi;
		d_step { p = nxt[p]; printf("P%d: next -> #%d\n", _pid, p) }
	:: else -> break
	od;
	assert(IS_MARK(p));
	m = p;
check:
	p = 0;
	if
	:: m == MARK(tbl, idx)
	:: else ->
#ifdef OLD_RULE
		if
		:: OLDFIT(m, tbl, idx) ->
			printf("P%d: #%d fits (old rule)\n", _pid, m)
		:: else ->
			printf("P%d: #%d does not fit: retry\n", _pid, m);
			m = 0;
			goto retry
		fi
#else
		pa = past[tbl];
		fu = future[tbl];
		if
		:: SHARED_FIT(m, tbl, idx, pa, fu) ->
			printf("P%d: #%d fits (past A%d, future A%d)\n",
			       _pid, m, pa - 1, fu - 1);
			pa = 0; fu = 0
		:: else ->
			printf("P%d: #%d does not fit: retry\n", _pid, m);
			pa = 0; fu = 0; m = 0;
			goto retry
		fi
#endif
	fi;
	m = 0;
#if !defined(OLD_RULE) && !defined(NO_SEQ)
	if
	:: seq[STRIPE(tbl, idx)] != s0 ->
		printf("P%d: seq changed: retry\n", _pid);
		goto retry
	:: else -> printf("P%d: seq unchanged\n", _pid)
	fi;
#endif
	fu = future[tbl];
	if
	:: fu != 0 ->
		tbl = fu - 1; fu = 0;
		printf("P%d: miss, go on in future A%d\n", _pid, tbl);
		goto lookup
	:: else
	fi;
	printf("P%d: MISS\n", _pid);
#ifdef ABSENT
	rcu = 0;
	goto done;
#else
	assert(false);		/* MISS: S was in the table throughout */
#endif
found:
	assert(p == S && key[p] == K);
	d_step { rcu = 0; printf("P%d: found #%d\n", _pid, p) }
done:
	skip
}

#ifdef WALKER
/* ======================================================================= */
/* The walker: rht_walk() over S's bucket or the whole array, one section  */
/* ======================================================================= */

/*
 * A walk of array tbl, as rhashtable_walk_next() does it: with WALK_ALL
 * every bucket in order from 0, else reduced to the bucket S hashes to in
 * ht->tbl at the start.  If that array is being rehashed, the walk goes on
 * in the new array after its last bucket (from bucket 0, or S's bucket).
 * An epoch runs from one rht_seq_begin() to the next -EAGAIN; ret holds
 * what the walk returned in it (bit o).
 * Every read of the shared state is a step of its own, as in the reader.
 * Property (the walk's contract):
 *   - what it returns was in its bucket (in table 1, hashing to slot in
 *     tbl) at some time in the epoch (ghost wseen, kept up to date by the
 *     updater's inserts); with WALK_STRICT also at the return itself;
 *   - it was not returned before in the epoch;
 *   - the walk does not end unless the last epoch of a bucket it finished
 *     (fitting marker, stripe unchanged) returned S.
 */
proctype walker()
{
	byte tbl, slot, p, m, s0, pa, fu, ret;
	bool foreign, found;

	d_step {				/* rcu_read_lock(); ht->tbl */
		rcu = 1; tbl = cur;
		printf("P%d: walk start, tbl = A%d\n", _pid, tbl)
	}
#ifdef WALK_ALL
	slot = 0;
bucket:
#else
bucket:
	slot = HASH(tbl, K);
#endif
redo:
	atomic {
		s0 = seq[STRIPE(tbl, slot)];	/* rht_seq_begin() */
		wtbl = tbl; wslot = slot; wseen = 0; p = 1;
		do
		:: p <= NOBJ ->
			if
			:: IN_WALK(p) -> wseen = wseen | (1 << p)
			:: else
			fi;
			p++
		:: else -> break
		od;
		p = 0
	}
	d_step {
		ret = 0;
		p = HEAD(tbl, slot);
		printf("P%d: epoch on A%d[%d] (s0 = %d), head -> #%d\n",
		       _pid, tbl, slot, s0, p);
		if
		:: p == 0 -> p = MARK(tbl, slot)	/* empty: own marker */
		:: else
		fi
	}
	do
	:: IS_OBJ(p) ->
		/* rht_walk_foreign(): future or past, then the object's key */
#ifdef WALK_FOREIGN_ALWAYS
		foreign = true;
#else
		foreign = (future[tbl] != 0 || past[tbl] != 0);
#endif
		if
		:: foreign && HASH(tbl, key[p]) != slot ->
			d_step {
				foreign = false;
				printf("P%d: #%d is foreign: skip\n", _pid, p)
			}
		:: else ->
			d_step {
				if
				:: !foreign ->
					printf("P%d: no resize: take #%d\n",
					       _pid, p)
				:: else
				fi;
				foreign = false
			}
			d_step {
#ifdef WALK_OBJ_CHECK
				/* rht_walk_moved() before rht_walk_take() */
				if
				:: seq[STRIPE(tbl, slot)] != s0 ->
					printf("P%d: seq changed at #%d: -EAGAIN\n",
					       _pid, p);
					p = 0
				:: else
				fi;
#endif
				if
				:: p != 0 ->
					printf("P%d: return #%d\n", _pid, p);
					assert((wseen & (1 << p)) != 0);
#ifdef WALK_STRICT
					assert(where[p] != 2 &&
					       HASH(tbl, key[p]) == slot);
#endif
					assert((ret & (1 << p)) == 0);
					ret = ret | (1 << p)
				:: else
				fi
			}
			if
			:: p == 0 -> goto redo
			:: else
			fi
		fi;
		d_step { p = nxt[p]; printf("P%d: next -> #%d\n", _pid, p) }
	:: else -> break
	od;
	assert(IS_MARK(p));
	m = p;
	p = 0;
	/* rht_nulls_fits(): own marker, or shared_fit() as for a lookup */
	if
	:: m == MARK(tbl, slot)
	:: else ->
		pa = past[tbl];
		fu = future[tbl];
		if
		:: SHARED_FIT(m, tbl, slot, pa, fu) ->
			printf("P%d: #%d fits (past A%d, future A%d)\n",
			       _pid, m, pa - 1, fu - 1);
			pa = 0; fu = 0
		:: else ->
			printf("P%d: #%d does not fit: -EAGAIN\n", _pid, m);
			pa = 0; fu = 0; m = 0;
			goto redo
		fi
	fi;
	m = 0;
	if
	:: seq[STRIPE(tbl, slot)] != s0 ->
		printf("P%d: seq changed at the end: -EAGAIN\n", _pid);
		goto redo
	:: else ->
		d_step {
			printf("P%d: bucket done\n", _pid);
			found = found || (ret & (1 << S)) != 0;
			ret = 0; s0 = 0
		}
	fi;
#ifdef WALK_ALL
	/* the next bucket of the array, as rht_walk() does at a marker */
	if
	:: slot + 1 < SIZE(tbl) ->
		slot++;
		printf("P%d: next bucket A%d[%d]\n", _pid, tbl, slot);
		goto redo
	:: else
	fi;
#endif
	/* last bucket: a rehash's array is walked next, from its start */
	d_step {
		fu = future[tbl];
		if
		:: fu != 0 && kind[fu - 1] == K_REHASH ->
			tbl = fu - 1;
#ifdef WALK_ALL
			slot = 0;
#endif
			printf("P%d: rehash: -EAGAIN, go on in A%d\n", _pid, tbl)
		:: else -> tbl = NOARR
		fi;
		fu = 0
	}
	if
	:: tbl != NOARR -> goto bucket
	:: else
	fi;
	assert(found);		/* S was in the table throughout */
	d_step {
		rcu = 0; wtbl = NOARR; wslot = 0; wseen = 0; found = false;
		printf("P%d: walk done\n", _pid)
	}
}
#endif

/* ======================================================================= */
/* Chain operations of the worker and the updater.  They use the caller's  */
/* scratch variables (SCRATCH) and clear them when done (SCRUB), so that   */
/* no stale value splits states.  A computation runs in a d_step: the      */
/* caller holds the bucket locks and the reader writes nothing.  Every     */
/* pointer store is a step of its own, in the order of lib/rhashtable.c.   */
/* ======================================================================= */
#define SCRATCH	byte n, hx, hy, h0, h1, mt, sd, ob, prv, to, f0, f1, q, r, eb, \
		     cnt, cnt2; bool busy
#define SCRUB	n = 0; hx = 0; hy = 0; h0 = 0; h1 = 0; mt = 0; sd = 0; ob = 0; \
		prv = 0; to = 0; f0 = 0; f1 = 0; q = 0; r = 0; eb = 0; cnt = 0; \
		cnt2 = 0

/* Last object on the path from h (an object, 0 or a marker); 0 if none. */
inline walk_last(h, res)
{
	res = 0; q = h; cnt = 0;
	do
	:: IS_OBJ(q) -> res = q; q = nxt[q]; cnt++; assert(cnt <= NOBJ)
	:: else -> break
	od
}

/* First object common to the paths from a and b; 0 if none. */
inline walk_meet(a, b, res)
{
	res = 0; q = a; cnt = 0;
	do
	:: IS_OBJ(q) && res == 0 ->
		r = b; cnt2 = 0;
		do
		:: IS_OBJ(r) && r != q ->
			r = nxt[r]; cnt2++; assert(cnt2 <= NOBJ)
		:: else -> break
		od;
		if
		:: r == q -> res = q
		:: else -> q = nxt[q]; cnt++; assert(cnt <= NOBJ)
		fi
	:: else -> break
	od
}

/* Unlink o from the path of bucket b of array a, if it is on it. */
inline unlink_path(a, b, o)
{
	d_step {
		q = HEAD(a, b); cnt = 0;
		do
		:: q == o -> break
		:: IS_OBJ(q) && q != o ->
			prv = q; q = nxt[q]; cnt++; assert(cnt <= NOBJ)
		:: else -> break
		od;
		if
		:: q == o && prv == 0 ->
			HEAD(a, b) = HEADVAL(nxt[o]); TR_H(a, b, HEAD(a, b))
		:: q == o && prv != 0 ->
			nxt[prv] = nxt[o]; TR_N(prv, nxt[prv])
		:: else
		fi;
		SCRUB
	}
}

/* Doubling: U's heads x and x + |T| at the first object of each in T[x]. */
inline unzip_link(t, u, x)
{
	d_step {
		q = HEAD(t, x);
		do
		:: IS_OBJ(q) && (f0 == 0 || f1 == 0) ->
			if
			:: HASH(u, key[q]) == x && f0 == 0 -> f0 = q
			:: HASH(u, key[q]) != x && f1 == 0 -> f1 = q
			:: else
			fi;
			q = nxt[q]; cnt++; assert(cnt <= NOBJ)
		:: else -> break
		od;
		HEAD(u, x) = f0; TR_H(u, x, f0)
	}
	d_step {
		HEAD(u, x + SIZE(t)) = f1; TR_H(u, x + SIZE(t), f1);
		SCRUB
	}
}

/*
 * One unzip step for U's pair x, x + |T| (rht_unzip_step()); busy if the
 * pair needs another pass.  sd: the side (0: x) the first common object
 * hashes to; the other side's last link before it skips to the other
 * side's next object.  The last such cut (the other side has no object
 * left after the meeting one) is followed by the end marker of the
 * meeting side's tail, in the same step.  A pair whose paths are apart
 * gets its own markers at both ends.  f1 and eb: the object whose link
 * the second store sets, and the bucket whose marker it gets.
 */
inline unzip_step(t, u, x)
{
	d_step {
		n = SIZE(t);
		h0 = HEAD(u, x); h1 = HEAD(u, x + n);
		walk_meet(h0, h1, mt);
		busy = (mt != 0);
		if
		:: busy ->
			sd = (HASH(u, key[mt]) != x);
			ob = (sd == 0 -> x + n : x);	/* other's bucket */
			q = (sd == 0 -> h1 : h0);
			do
			:: q != mt -> prv = q; q = nxt[q]
			:: else -> break
			od;
			f1 = mt; to = nxt[mt];
			do
			:: IS_OBJ(to) && HASH(u, key[to]) != ob ->
				f1 = to; to = nxt[to]
			:: else -> break
			od;
			if
			:: !IS_OBJ(to) ->		/* the last cut */
				to = MARK(u, ob); busy = false;
				eb = (sd == 0 -> x : x + n)
			:: else -> f1 = 0
			fi;
			if
			:: prv != 0 ->			/* the cut */
				nxt[prv] = to; TR_N(prv, to)
			:: else ->
				HEAD(u, ob) = HEADVAL(to);
				TR_H(u, ob, HEAD(u, ob))
			fi;
			if
			:: busy -> SCRUB
			:: else
			fi
		:: else ->
			walk_last(h0, f0);
			walk_last(h1, f1);
			eb = x + n;
			if
			:: f0 != 0 ->			/* apart */
				nxt[f0] = MARK(u, x); TR_N(f0, nxt[f0])
			:: else
			fi
		fi
	}
	if
	:: !busy ->
		d_step {
			if
			:: f1 != 0 && nxt[f1] != MARK(u, eb) ->
				nxt[f1] = MARK(u, eb); TR_N(f1, nxt[f1])
			:: else
			fi;
			SCRUB
		}
	:: else
	fi
}

/*
 * Halving (rht_zip_pair()): U[x] = T[x] ++ T[x + |U|].  Idempotent; also
 * repairs the join after an update changed T's chains.
 */
inline zip_pair(t, u, x)
{
	d_step {
		n = SIZE(u);
#if defined(ZIP_PAIR_BUMP) && !defined(NO_ZIP_BUMP)
		seq[STRIPE(t, x)]++;
		printf("P%d: bump A%d stripe of %d\n", _pid, t, x);
#endif
		hy = HEAD(t, x + n);
		walk_last(hy, f1);
		if
		:: f1 != 0 ->			/* second chain's end */
			nxt[f1] = MARK(u, x); TR_N(f1, nxt[f1])
		:: else
		fi
	}
	d_step {
		hx = HEAD(t, x);
		if
		:: hx != 0 && hy != 0 -> walk_meet(hx, hy, mt)
		:: else
		fi;
		if
		:: mt != 0 && mt == hx ->	/* T[x] has no own object left */
			HEAD(t, x) = 0; hx = 0; TR_H(t, x, 0)
		:: else
		fi
	}
	if
	:: hx == 0 -> d_step { HEAD(u, x) = hy; TR_H(u, x, hy); SCRUB }
	:: else ->
		d_step {
			prv = hx; cnt = 0;
			do
			:: IS_OBJ(nxt[prv]) && nxt[prv] != mt ->
				prv = nxt[prv]; cnt++; assert(cnt <= NOBJ)
			:: else -> break
			od;
			to = (hy != 0 -> hy : MARK(u, x));
			nxt[prv] = to; TR_N(prv, to)	/* first chain's end */
		}
		d_step { HEAD(u, x) = hx; TR_H(u, x, hx); SCRUB }
	fi
}

#define LOCK(bits)	atomic { (lockbits & (bits)) == 0 -> \
				 lockbits = lockbits | (bits) }
#define UNLOCK(bits)	lockbits = lockbits & ~(bits)

/* ======================================================================= */
/* The worker                                                              */
/* ======================================================================= */

/* Doubling t -> u, same seed: unzip_link every pair, publish, unzip. */
inline do_grow(t, u)
{
	d_step {
		shift[u] = shift[t] + 1; seed[u] = seed[t]; gen[u] = gen[t];
		kind[u] = K_GROW; past[u] = t + 1;
		rsT = t; rsU = u; phase = PH_GROW_PREP;
		future[t] = u + 1;
		printf("P%d: doubling A%d -> A%d: GROW_PREP\n", _pid, t, u)
	}
	x = 0;
	do
	:: x < SIZE(t) ->
		LOCK(LBIT(t, x));
		unzip_link(t, u, x);
		UNLOCK(LBIT(t, x));
		x++
	:: else -> break
	od;
	atomic { cur = u; printf("P%d: publish A%d\n", _pid, u) }
#ifndef NO_PUBLISH_GP
	GP;
#endif
	todo = (1 << SIZE(t)) - 1;
#ifdef PREP_FLUSH
	/*
	 * Fix 1: no update starts in GROW_PREP any more; let those that did
	 * finish (take and drop each pair's lock), then wait for the readers
	 * that may have walked a path such an update changed.
	 */
	phase = PH_GROW_UNZIP;
	x = 0;
	do
	:: x < SIZE(t) -> LOCK(LBIT(t, x)); UNLOCK(LBIT(t, x)); x++
	:: else -> break
	od;
	GP;
#endif
	do
	:: atomic {
		phase = PH_GROW_UNZIP;
		printf("P%d: GROW_UNZIP pass\n", _pid);
		x = 0
	   }
		do
		:: x < SIZE(t) ->
			if
			:: (todo & (1 << x)) != 0 ->
				LOCK(LBIT(t, x));
				unzip_step(t, u, x);
				UNLOCK(LBIT(t, x));
				if
				:: busy -> more = true; busy = false
				:: else -> todo = todo & ~(1 << x)
				fi
			:: else
			fi;
			x++
		:: else -> break
		od;
		if
		:: more ->
			more = false;
#ifndef NO_UNZIP_GP
			GP
#else
			skip
#endif
		:: else ->
			d_step {
				phase = PH_NONE; past[u] = 0;
				rsT = NOARR; rsU = NOARR; x = 0;
				printf("P%d: doubling done\n", _pid)
			}
			break
		fi
	od
}

/* Halving t -> u, same seed: zip every pair, publish, settle, release. */
inline do_shrink(t, u)
{
	d_step {
		shift[u] = shift[t] - 1; seed[u] = seed[t]; gen[u] = gen[t];
		kind[u] = K_SHRINK; past[u] = t + 1;
		rsT = t; rsU = u; phase = PH_SHRINK_PREP;
		future[t] = u + 1;
		printf("P%d: halving A%d -> A%d: SHRINK_PREP\n", _pid, t, u)
	}
	x = 0;
	do
	:: x < SIZE(u) ->
		LOCK(LBIT(t, x) | LBIT(t, x + SIZE(u)));
#if !defined(NO_ZIP_BUMP) && !defined(ZIP_PAIR_BUMP)
		d_step {
			seq[STRIPE(t, x)]++;
			printf("P%d: bump A%d stripe of %d\n", _pid, t, x)
		}
#endif
		zip_pair(t, u, x);
		UNLOCK(LBIT(t, x) | LBIT(t, x + SIZE(u)));
		x++
	:: else -> break
	od;
	atomic { cur = u; x = 0; printf("P%d: publish A%d\n", _pid, u) }
	GP;
	d_step {
		phase = PH_NONE;			/* SETTLE */
		printf("P%d: phase NONE\n", _pid)
	}
	GP;
	d_step {					/* RELEASE */
		past[u] = 0; rsT = NOARR; rsU = NOARR;
		printf("P%d: halving done\n", _pid)
	}
}

/* Rehash t -> u (other seed; sh: shift of u): move objects one by one. */
inline do_rehash(t, u, sh)
{
	d_step {
		shift[u] = sh; seed[u] = 1 - seed[t]; gen[u] = gen[t] + 1;
		kind[u] = K_REHASH; past[u] = 0;
		rsT = t; rsU = u; phase = PH_REHASH;
		future[t] = u + 1;
		printf("P%d: rehash A%d -> A%d: REHASH\n", _pid, t, u)
	}
	x = 0;
	do
	:: x < SIZE(t) ->
		LOCK(LBIT(t, x));
#if defined(MOVE_BUMP) && !defined(MOVE_BUMP_EACH)
		/* rht_move_bucket(): once, before the bucket's first move */
		d_step {
			if
			:: HEAD(t, x) != 0 ->
				seq[STRIPE(t, x)]++;
				printf("P%d: bump A%d stripe of %d\n", _pid, t, x)
			:: else
			fi
		}
#endif
		do
		:: HEAD(t, x) != 0 ->
			d_step { q = HEAD(t, x); to = nxt[q]; ob = HASH(u, key[q]) }
			LOCK(LBIT(u, ob));
#ifdef MOVE_BUMP_EACH
			/* before every move, as before any other relink */
			d_step {
				seq[STRIPE(t, x)]++;
				printf("P%d: bump A%d stripe of %d\n", _pid, t, x)
			}
#endif
			d_step { nxt[q] = FIRST(u, ob); TR_N(q, nxt[q]) }
			d_step { HEAD(u, ob) = q; TR_H(u, ob, q) }
			UNLOCK(LBIT(u, ob));
			d_step {
				HEAD(t, x) = HEADVAL(to); TR_H(t, x, HEAD(t, x));
				SCRUB
			}
		:: else -> break
		od;
		UNLOCK(LBIT(t, x));
		x++
	:: else -> break
	od;
	atomic { cur = u; x = 0; printf("P%d: publish A%d\n", _pid, u) }
#ifdef REHASH_SETTLE
	/*
	 * Walks that began in t before the publish may still be in it:
	 * updates go on bumping t's stripes (phase REHASH: t is in their
	 * domain) until they are gone.
	 */
	GP;
#endif
	d_step {
		phase = PH_NONE; rsT = NOARR; rsU = NOARR;
		printf("P%d: rehash done\n", _pid)
	}
}

proctype worker()
{
	SCRATCH;
	byte x, todo;
	bool more;

#if defined(SCEN_GROW)
	do_grow(0, 1)
#elif defined(SCEN_SHRINK)
	do_shrink(0, 1)
#elif defined(SCEN_REHASH)
	do_rehash(0, 1, 1)
#elif defined(SCEN_REHASH_GROW)
	do_rehash(0, 1, 2)
#elif defined(SCEN_GROW_SHRINK)
	do_grow(0, 1);
	do_shrink(1, 2)
#else
	skip			/* SCEN_CROSS: no resize */
#endif
}

/* ======================================================================= */
/* The updater                                                             */
/* ======================================================================= */

/*
 * What an update of key kk of table 1 finds under its locks, as in
 * rht_dom_lock(): NEED() is its lock set (usable as a guard), ctx() fills
 * ph, ta (T), ua (U), ti, ui and need.  Outside a resize ta = ua = cur.
 */
#define NEED(kk) \
	(phase == PH_NONE -> LBIT(cur, HASH(cur, kk)) : \
	 (phase == PH_SHRINK_PREP -> \
	  (LBIT(rsT, HASH(rsU, kk)) | LBIT(rsT, HASH(rsU, kk) + SIZE(rsU)) | \
	   LBIT(rsU, HASH(rsU, kk))) : \
	  (LBIT(rsT, HASH(rsT, kk)) | LBIT(rsU, HASH(rsU, kk)))))

inline ctx(kk)
{
	ph = phase;
	ta = (ph == PH_NONE -> cur : rsT);
	ua = (ph == PH_NONE -> cur : rsU);
	ti = HASH(ta, kk);
	ui = HASH(ua, kk);
	need = NEED(kk)
}

#define CTX_CLEAR	ph = 0; ta = 0; ua = 0; ti = 0; ui = 0; need = 0

/* Take o out of its table: rht_dom_relink(..., NULL) and the fixup. */
inline upd_remove(o)
{
	if
	:: where[o] == 2 ->
		printf("P%d: remove #%d from table 2\n", _pid, o);
		unlink_path(T2, HASH(T2, key[o]), o)
	:: else ->
		atomic {
			(lockbits & NEED(key[o])) == 0 ->
			ctx(key[o]);
			lockbits = lockbits | need;
			printf("P%d: remove #%d (key %d), phase %d\n",
			       _pid, o, key[o], ph)
		}
		if
		:: ph == PH_NONE ->
			unlink_path(ua, ui, o)
		:: ph == PH_GROW_PREP ->
			unlink_path(ta, ti, o);
			unlink_path(ua, ti, o);
			unlink_path(ua, ti + SIZE(ta), o);
			unzip_link(ta, ua, ti)
#ifdef PREP_RM_BUMP
			;
			d_step {
				seq[STRIPE(ta, ti)]++; seq[STRIPE(ua, ti)]++;
				printf("P%d: bump A%d stripe of %d, A%d of %d\n",
				       _pid, ta, ti, ua, ti)
			}
#endif
		:: ph == PH_GROW_UNZIP ->
			unlink_path(ua, ti, o);
			unlink_path(ua, ti + SIZE(ta), o)
		:: ph == PH_SHRINK_PREP ->
			unlink_path(ta, ui, o);
			unlink_path(ta, ui + SIZE(ua), o);
			unlink_path(ua, ui, o);
			zip_pair(ta, ua, ui)
		:: ph == PH_REHASH ->
			unlink_path(ta, ti, o);
			unlink_path(ua, ui, o)
		fi;
#ifdef WALK_RM_BUMP
		/*
		 * rht_unlinked() -> rht_dom_bump(), after the locks are
		 * dropped (RM_BUMP_LOCKED: before): a walk may stand on o,
		 * whose next pointer the insert below rewrites.  Once if T
		 * and U are one array.
		 */
#ifndef RM_BUMP_LOCKED
		d_step {
			UNLOCK(need); need = 0;
			printf("P%d: unlock\n", _pid)
		}
#endif
		d_step {
			seq[STRIPE(ta, ti)]++;
			printf("P%d: unlinked: bump A%d stripe of %d\n",
			       _pid, ta, ti);
			if
			:: ua != ta ->
				seq[STRIPE(ua, ui)]++;
				printf("P%d: unlinked: bump A%d stripe of %d\n",
				       _pid, ua, ui)
			:: else
			fi;
#ifdef RM_BUMP_LOCKED
			UNLOCK(need);
#endif
			CTX_CLEAR
		}
#else
		d_step { UNLOCK(need); CTX_CLEAR }
#endif
	fi;
	where[o] = 0
}

/* Give o key kk and insert it into table tb: rht_dom_link(). */
inline upd_insert(o, kk, tb)
{
	if
	:: tb == 2 ->
		d_step {
			key[o] = kk; where[o] = 2;
			printf("P%d: insert #%d key %d into table 2\n",
			       _pid, o, kk);
			nxt[o] = FIRST(T2, HASH(T2, kk)); TR_N(o, nxt[o])
		}
		d_step { HEAD(T2, HASH(T2, kk)) = o; TR_H(T2, HASH(T2, kk), o) }
	:: else ->
		atomic {
			(lockbits & NEED(kk)) == 0 ->
			ctx(kk);
			lockbits = lockbits | need;
			key[o] = kk; where[o] = 1;
#ifdef WALKER
			if
			:: wtbl != NOARR && IN_WALK(o) ->
				wseen = wseen | (1 << o)	/* ghost */
			:: else
			fi;
#endif
			printf("P%d: insert #%d key %d, phase %d\n",
			       _pid, o, kk, ph)
		}
		if
		:: ph != PH_NONE ->	/* NEW RULE: bump in both arrays first */
			d_step {
				seq[STRIPE(ta, ti)]++; seq[STRIPE(ua, ui)]++;
				printf("P%d: bump A%d stripe of %d, A%d of %d\n",
				       _pid, ta, ti, ua, ui)
			}
		:: else
		fi;
		if
		:: ph == PH_NONE || ph == PH_GROW_UNZIP || ph == PH_REHASH ->
			d_step { nxt[o] = FIRST(ua, ui); TR_N(o, nxt[o]) }
			d_step { HEAD(ua, ui) = o; TR_H(ua, ui, o) }
		:: ph == PH_GROW_PREP && IS_OBJ(HEAD(ua, ui)) ->
			/* after the first object of its side: no new run */
			d_step {
				f0 = HEAD(ua, ui);
				nxt[o] = nxt[f0]; TR_N(o, nxt[o])
			}
			d_step { nxt[f0] = o; TR_N(f0, o); f0 = 0 }
		:: ph == PH_GROW_PREP && !IS_OBJ(HEAD(ua, ui)) ->
			d_step { nxt[o] = FIRST(ta, ti); TR_N(o, nxt[o]) }
			d_step { HEAD(ta, ti) = o; TR_H(ta, ti, o) }
			unzip_link(ta, ua, ti)
		:: ph == PH_SHRINK_PREP ->
			d_step { nxt[o] = FIRST(ta, ti); TR_N(o, nxt[o]) }
			d_step { HEAD(ta, ti) = o; TR_H(ta, ti, o) }
			zip_pair(ta, ua, ui)
		fi;
		d_step { UNLOCK(need); CTX_CLEAR }
	fi
}

#ifdef ATOMIC_UPDATES
#define UPDATE(x)	atomic { x }
#else
#define UPDATE(x)	x
#endif

proctype updater()
{
	SCRATCH;
	byte o, k, tb, moves, ph, ta, ua, ti, ui;
	int need;

	do
	:: moves < MOVES ->
		if
		:: o = 2
		:: o = 3
		:: o = 4
		fi;
		UPDATE(upd_remove(o));
		if
		:: k = 1
		:: k = 2
		:: k = 3
		:: k = 4
		fi;
#ifdef TABLE2
		if
		:: tb = 1
		:: tb = 2
		fi;
#else
		tb = 1;
#endif
		UPDATE(upd_insert(o, k, tb));
		d_step { moves++; o = 0; k = 0; tb = 0 }
	:: else -> break
	od
}

/* ======================================================================= */
/* Setup and final check                                                   */
/* ======================================================================= */

/* Append object o with key kk to the chain of bucket b of array a. */
inline put(o, kk, a, b)
{
	key[o] = kk; where[o] = (a == T2 -> 2 : 1); nxt[o] = MARK(a, b);
	q = HEAD(a, b);
	if
	:: q == 0 -> HEAD(a, b) = o
	:: else ->
		do
		:: IS_OBJ(nxt[q]) -> q = nxt[q]
		:: else -> break
		od;
		nxt[q] = o
	fi
}

/* Every chain of array a ends in its own marker and holds its objects. */
inline check_array(a, tb)
{
	b = 0;
	do
	:: b < SIZE(a) ->
		q = HEAD(a, b); cnt = 0;
		do
		:: IS_OBJ(q) ->
			assert(where[q] == tb && HASH(a, key[q]) == b);
			seen = seen | (1 << q);
			q = nxt[q]; cnt++; assert(cnt <= NOBJ)
		:: else -> break
		od;
		assert(q == 0 || q == MARK(a, b));
		b++
	:: else -> break
	od
}

init
{
	byte q, b, cnt, o;
	int seen;

	d_step {
		shift[T2] = 1;
#if defined(SCEN_SHRINK)
		shift[0] = 2;
		put(2, 4, 0, 0); put(S, KS, 0, 0);	/* T[0]: o2 S */
		put(3, 2, 0, 2);			/* T[2]: o3 */
		put(4, 1, 0, 1);			/* T[1]: o4 */
#elif defined(SCEN_CROSS)
		shift[0] = 1;
		put(2, 4, 0, 0); put(S, KS, 0, 0);	/* T[0]: o2 S */
		put(3, 1, 0, 1);			/* T[1]: o3 */
		put(4, 2, T2, 0);			/* table 2 [0]: o4 */
#elif defined(SCEN_REHASH) || defined(SCEN_REHASH_GROW)
		shift[0] = 1;
		put(2, 4, 0, 0); put(S, KS, 0, 0); put(3, 2, 0, 0);
#ifdef WALKER
		/*
		 * T[1] empty, o4 in table 2: T's two buckets share one
		 * stripe, so a walk of T[0] can begin after the last move
		 * only if T[1] has nothing to move (o4 may come in).
		 */
		put(4, 2, T2, 0);
#else
		put(4, 1, 0, 1);		/* T[0]: o2 S o3, T[1]: o4 */
#endif
#else
		/*
		 * GROW, GROW_SHRINK: T[0] = a1 b1 a2 b2 = o2 o3 S o4 (a: U[0],
		 * b: U[2]), which takes three unzip passes; the third also
		 * sets the end markers.
		 */
		shift[0] = 1;
		put(2, 4, 0, 0); put(3, 2, 0, 0); put(S, KS, 0, 0);
		put(4, 2, 0, 0);
#endif
		cur = 0; q = 0
	}
#ifdef WALKER
	run walker();
#else
	run reader();
#endif
	run updater();
	run worker();
	(_nr_pr == 1);
	d_step {
		assert(phase == PH_NONE && rcu == 0 && lockbits == 0);
		check_array(cur, 1);
		check_array(T2, 2);
		o = 1;
		do
		:: o <= NOBJ -> assert((seen & (1 << o)) != 0); o++
		:: else -> break
		od
	}
}
