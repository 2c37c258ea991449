# SPDX-License-Identifier: Apache-2.0
"""The plan and the report: their data model, writer, reader (plans as input), JSON schema and HTML page."""
