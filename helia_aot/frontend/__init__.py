# SPDX-License-Identifier: Apache-2.0
"""Front ends: each turns one model file format into the IR and does nothing else."""
