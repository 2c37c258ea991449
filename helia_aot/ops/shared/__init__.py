# SPDX-License-Identifier: Apache-2.0
"""What several operator modules share: operand declarations, shape and window arithmetic, broadcasting,
fused activation ranges, LiteRT's Prepare arithmetic and lookup tables, and the base classes of operator
families (ADD / SUB, MINIMUM / MAXIMUM, the clamps, the comparisons, ...). Nothing here registers an
operator: `helia_aot.ops` discovers one module per operator beside this package and skips it."""
