/* Bare-metal EL1 MTE probe for QEMU -M virt,mte=on -cpu max. */
	.arch armv8.5-a+memtag
	.section .text.start, "ax"
	.global _start
_start:
	ldr	x0, =stack_top
	mov	sp, x0
	adr	x0, vectors
	msr	vbar_el1, x0
	isb
	bl	main
1:	wfi
	b	1b

	.balign 2048
vectors:
	.rept 16
	.balign 128
	b	sync_handler
	.endr

sync_handler:
	sub	sp, sp, #(32*8)
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x30, [sp, #144]
	mrs	x0, esr_el1
	mrs	x1, far_el1
	mrs	x2, elr_el1
	bl	on_exception
	mrs	x2, elr_el1
	add	x2, x2, #4		/* skip the faulting instruction */
	msr	elr_el1, x2
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x30, [sp, #144]
	add	sp, sp, #(32*8)
	eret
