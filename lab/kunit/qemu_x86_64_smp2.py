# SPDX-License-Identifier: GPL-2.0
#
# kunit.py --qemu_config for x86_64 with two CPUs.  TCG, not KVM: KVM does
# not work on the lab machines.  Later "-m" wins over kunit.py's "-m 1024".
import os

from ..qemu_config import QemuArchParams

BIOS = '/usr/share/qemu/qboot.rom'

QEMU_ARCH = QemuArchParams(linux_arch='x86_64',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y''',
			   qemu_arch='x86_64',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0',
			   extra_qemu_params=['-smp', '2', '-m', '2048',
					      '-accel', 'tcg'] +
			   (['-bios', 'qboot.rom'] if os.path.exists(BIOS) else []))
