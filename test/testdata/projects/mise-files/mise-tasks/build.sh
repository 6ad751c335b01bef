#!/bin/sh
#MISE description="never listed: mise.toml has a build task"
vite build
