# SPDX-License-Identifier: Apache-2.0
"""Version of helia_aot and of the ns-cmsis-nn release generated modules need."""

__version__ = "0.1.0"

# Generated modules call ns-cmsis-nn's v7.29 API (weight_sum_ctx arguments etc.).
NS_CMSIS_NN_REQUIRED = (7, 29, 2)


def ns_cmsis_nn_required_str() -> str:
    return ".".join(str(v) for v in NS_CMSIS_NN_REQUIRED)


def ns_cmsis_nn_required_packed() -> int:
    """Same packing as the NS_CMSIS_NN_VERSION macro: MAJOR*1e6 + MINOR*1e3 + PATCH."""
    major, minor, patch = NS_CMSIS_NN_REQUIRED
    return major * 1000000 + minor * 1000 + patch
