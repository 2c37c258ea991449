# SPDX-License-Identifier: Apache-2.0
"""Modules of tools/bench.py: conversion figures, kernel libraries, Corstone-300 firmware builds,
code-size attribution, QEMU instruction counts and the output table."""
