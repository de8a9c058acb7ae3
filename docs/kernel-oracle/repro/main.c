/*
 * Bare-metal MTE probe (EL1, no OS) for QEMU virt,mte=on -cpu max.
 * Separates QEMU's MTE emulation from anything the Linux kernel does.
 *
 * VA layout (39-bit VA, 4K granule, level-1 1 GiB blocks):
 *   VA 0x00000000 -> PA 0x00000000  Device (UART at 0x09000000)   attr idx 2
 *   VA 0x40000000 -> PA 0x40000000  Normal WB (code/data/stack)    attr idx 0
 *   VA 0x80000000 -> PA 0x40000000  attr idx 1 (Normal, later switched to Tagged)
 *   VA 0xC0000000 -> PA 0x40000000  Normal Tagged (0xf0)           attr idx 3
 */
#include <stdint.h>
typedef uint64_t u64;

#define UART ((volatile uint32_t *)0x09000000)
static void putc_(char c) { if (c == '\n') *UART = '\r'; *UART = c; }
static void puts_(const char *s) { while (*s) putc_(*s++); }
static void puthex(u64 v) { puts_("0x"); for (int i = 60; i >= 0; i -= 4) putc_("0123456789abcdef"[(v >> i) & 0xf]); }
static void putx1(u64 v) { putc_("0123456789abcdef"[v & 0xf]); }

static u64 l1[512] __attribute__((aligned(4096)));
static volatile int faults;
static volatile u64 last_esr, last_far;
/* 16 pages of test memory, page aligned */
static unsigned char buf[16 * 4096] __attribute__((aligned(4096)));

#define RD(r) ({ u64 __v; asm volatile("mrs %0, " r : "=r"(__v)); __v; })
#define WR(r, v) asm volatile("msr " r ", %0" :: "r"((u64)(v)))
#define ISB() asm volatile("isb" ::: "memory")
#define DSB() asm volatile("dsb sy" ::: "memory")

void on_exception(u64 esr, u64 far, u64 elr)
{
	faults++; last_esr = esr; last_far = far;
	puts_("    [exception] ESR="); puthex(esr); puts_(" FAR="); puthex(far);
	puts_(" ELR="); puthex(elr);
	if (((esr >> 26) & 0x3f) == 0x25 && (esr & 0x3f) == 0x11)
		puts_("  (synchronous tag check fault)");
	puts_("\n");
}

static inline u64 tagptr(u64 a, unsigned t) { return (a & ~(0xfful << 56)) | ((u64)t << 56); }
static inline void stg(u64 tagged) { asm volatile(".arch armv8.5-a+memtag\n stg %0, [%0]" :: "r"(tagged) : "memory"); }
static inline void dc_gva(u64 tagged) { asm volatile(".arch armv8.5-a+memtag\n dc gva, %0" :: "r"(tagged) : "memory"); }
static inline unsigned ldg(u64 a) { u64 r = a; asm volatile(".arch armv8.5-a+memtag\n ldg %0, [%1]" : "+r"(r) : "r"(a) : "memory"); return (r >> 56) & 0xf; }
static inline u64 ld(u64 a) { u64 v; asm volatile("ldr %0, [%1]" : "=r"(v) : "r"(a) : "memory"); return v; }
static inline void tlbi_all(void) { asm volatile("dsb ishst; tlbi vmalle1; dsb nsh; isb" ::: "memory"); }

static int fails;
static void expect(const char *what, unsigned got, unsigned want)
{
	puts_(got == want ? "  PASS " : "  FAIL "); puts_(what); puts_(": tag="); putx1(got);
	puts_(" expected="); putx1(want); puts_("\n");
	if (got != want) fails++;
}

#define TAGGED_VA(pa) ((u64)(pa) - 0x40000000 + 0xC0000000)
#define IDX1_VA(pa)   ((u64)(pa) - 0x40000000 + 0x80000000)

int main(void)
{
	u64 mair = (0xfful << 0) | (0xfful << 8) | (0x00ul << 16) | (0xf0ul << 24);
	puts_("\n=== bare-metal MTE probe ===\n");
	puts_("ID_AA64PFR1_EL1="); puthex(RD("id_aa64pfr1_el1"));
	puts_(" (MTE field="); putx1(RD("id_aa64pfr1_el1") >> 8); puts_(")  DCZID_EL0="); puthex(RD("dczid_el0")); puts_("\n");

	l1[0] = 0x00000000ul | (2 << 2) | (1ul << 10) | 1 | (1ul << 54);   /* device, AF, block, XN */
	l1[1] = 0x40000000ul | (0 << 2) | (3 << 8) | (1ul << 10) | 1;      /* normal, ISH, AF */
	l1[2] = 0x40000000ul | (1 << 2) | (3 << 8) | (1ul << 10) | 1 | (1ul << 54);
	l1[3] = 0x40000000ul | (3 << 2) | (3 << 8) | (1ul << 10) | 1 | (1ul << 54);
	WR("mair_el1", mair);
	/* T0SZ=25, IRGN0/ORGN0=WBWA, SH0=inner, TG0=4K, EPD1, IPS=40bit, TBI0 */
	WR("tcr_el1", 25ul | (1ul << 8) | (1ul << 10) | (3ul << 12) | (1ul << 23) | (2ul << 32) | (1ul << 37));
	WR("ttbr0_el1", (u64)l1);
	/* GCR_EL1.RRND=0, exclude nothing; RGSR seed irrelevant */
	ISB(); tlbi_all();
	{
		u64 sctlr = RD("sctlr_el1");
		sctlr |= 1 | (1 << 2) | (1 << 12);      /* M, C, I */
		sctlr |= (1ul << 43);                   /* ATA: EL1 allocation tag access */
		sctlr &= ~(3ul << 40); sctlr |= (1ul << 40); /* TCF=sync */
		WR("sctlr_el1", sctlr); ISB();
	}
	asm volatile(".arch armv8.5-a+memtag\n msr tco, #0" ::: "memory");
	puts_("MMU on, SCTLR_EL1="); puthex(RD("sctlr_el1")); puts_(" TCR_EL1="); puthex(RD("tcr_el1")); puts_("\n");

	/* ---- Test A: granule addressing within one page (mapping Tagged from the start) ---- */
	puts_("\n[A] STG to two different granules of one page via a Tagged mapping, then LDG each\n");
	{
		u64 p = TAGGED_VA(&buf[0]);
		stg(tagptr(p + 0x100, 0x3));
		stg(tagptr(p + 0x200, 0x7));
		expect("LDG page+0x100 (STG tag 3)", ldg(p + 0x100), 3);
		expect("LDG page+0x200 (STG tag 7)", ldg(p + 0x200), 7);
		expect("LDG page+0x000 (never tagged)", ldg(p + 0x000), 0);
		expect("LDG page+0x300 (never tagged)", ldg(p + 0x300), 0);
		faults = 0;
		(void)ld(tagptr(p + 0x100, 0x3));
		puts_(faults ? "  FAIL checked LDR via ptr tag 3 at page+0x100 faulted\n"
			     : "  PASS checked LDR via ptr tag 3 at page+0x100: no fault\n");
		if (faults) fails++;
		faults = 0;
		(void)ld(tagptr(p + 0x300, 0x5));
		puts_(faults ? "  PASS checked LDR via ptr tag 5 at untagged page+0x300 faulted (mismatch detected)\n"
			     : "  FAIL checked LDR via ptr tag 5 at page+0x300 (mem tag 0): no fault\n");
		if (!faults) fails++;
	}

	/* ---- Test C: DC GVA on a block in the middle of a page ---- */
	puts_("\n[C] DC GVA (tag 5) on block page+0x400, then LDG inside and outside it\n");
	{
		u64 p = TAGGED_VA(&buf[4096]);
		unsigned bs = 4u << (RD("dczid_el0") & 0xf);
		dc_gva(tagptr(p + 0x400, 0x5));
		expect("LDG page+0x400 (DC GVA tag 5)", ldg(p + 0x400), 5);
		expect("LDG page+0x400+bs-16 (DC GVA tag 5)", ldg(p + 0x400 + bs - 16), 5);
		expect("LDG page+0x000 (never tagged)", ldg(p), 0);
	}

	/* ---- Test B: MAIR attribute switched from Normal to Tagged after TLB entries exist ---- */
	puts_("\n[B] MAIR idx1 Normal->Tagged after the page was touched (TLB filled)\n");
	{
		u64 p2 = IDX1_VA(&buf[2 * 4096]), p3 = IDX1_VA(&buf[3 * 4096]);
		(void)ld(p2); (void)ld(p3);            /* fill TLB with idx1 = Normal */
		WR("mair_el1", (mair & ~(0xfful << 8)) | (0xf0ul << 8));  /* idx1 -> Normal Tagged */
		ISB();
		stg(tagptr(p2, 0x9));
		expect("B1 no TLBI: STG tag 9 via idx1 mapping, LDG via fresh Tagged alias", ldg(TAGGED_VA(&buf[2 * 4096])), 9);
		tlbi_all();
		stg(tagptr(p3, 0xa));
		expect("B2 after TLBI VMALLE1: STG tag a via idx1 mapping, LDG via Tagged alias", ldg(TAGGED_VA(&buf[3 * 4096])), 0xa);
		expect("B2 LDG via the idx1 mapping itself", ldg(p3), 0xa);
	}

	puts_("\n=== RESULT: "); puts_(fails ? "FAIL" : "PASS"); puts_(" ("); putx1(fails); puts_(" failures) ===\n");
	/* PSCI SYSTEM_OFF via HVC (virt without EL2/EL3 uses HVC? QEMU default conduit is HVC for -kernel) */
	register u64 x0 asm("x0") = 0x84000008;
	asm volatile("hvc #0" : "+r"(x0) :: "memory");
	return 0;
}
