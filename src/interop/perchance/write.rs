pub(crate) fn generator() {}
