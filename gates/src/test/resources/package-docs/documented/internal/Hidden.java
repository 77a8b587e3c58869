package documented.internal;

class Hidden {}
