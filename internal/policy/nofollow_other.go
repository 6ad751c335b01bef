//go:build !unix

package policy

// oNoFollow: no O_NOFOLLOW here; OpenListed's identity check refuses a link.
const oNoFollow = 0
