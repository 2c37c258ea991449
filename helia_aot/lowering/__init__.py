# SPDX-License-Identifier: Apache-2.0
"""From a verified graph to lowered steps: verification, preparation, whole-graph rewrites, lowering and kernel choice."""
