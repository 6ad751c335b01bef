#!/bin/sh
#MISE description="Deploy the site"
