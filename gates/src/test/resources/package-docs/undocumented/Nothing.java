package undocumented;

class Nothing {}
