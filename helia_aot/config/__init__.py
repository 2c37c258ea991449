# SPDX-License-Identifier: Apache-2.0
"""The configuration: the file, the user's options resolved once, operator rules and targets."""
